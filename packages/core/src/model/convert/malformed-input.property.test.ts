import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { MemError } from '../../errors/mem-error.ts';
import type { Message } from '../message.ts';
import {
  hostileMemMessages,
  hostileMessage,
  hostileMessages,
  hostileValue,
} from './__fixtures__/hostile-arbitraries.ts';
import { fromModelMessages, toModelMessages } from './ai-sdk.ts';
import { toModelPrompt } from './ai-sdk-prompt.ts';
import { fromAnthropicMessages, toAnthropicMessages } from './anthropic.ts';
import type { AnthropicInput } from './anthropic-types.ts';
import { fromOpenAIMessages, toOpenAIMessages } from './openai.ts';
import type { OpenAIChatMessage } from './openai-types.ts';
import { fromResponsesItems, toResponsesInput } from './responses.ts';
import type { ResponsesItem } from './responses-types.ts';

/*
 * Whatever a caller hands a converter — a framework's messages, a store's rows, a user's own
 * objects — it either converts or throws a MemError naming where the problem is. A raw
 * TypeError, RangeError or DOMException never escapes, and nothing pollutes Object.prototype.
 */

const RUNS = 300;
const prototypeKeys = Object.getOwnPropertyNames(Object.prototype).sort();

/** Runs `convert`; a throw must be a `[mem/core]` MemError naming a path into the input. */
function convertsOrNamesTheItem(convert: () => unknown): void {
  try {
    convert();
  } catch (error) {
    if (!MemError.isInstance(error)) {
      throw new Error(`a raw ${(error as Error)?.name ?? typeof error} escaped`, { cause: error });
    }
    expect(error.message).toMatch(/^\[mem\/core\] /);
    expect(error.message).toMatch(/\b(messages|items|system|input)(\[\d+\])?/);
  }
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeKeys);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
}

afterAll(() => {
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeKeys);
});

describe('converters given malformed input throw a MemError naming the item, never a raw error', () => {
  it('fromOpenAIMessages', () => {
    fc.assert(
      fc.property(hostileMessages, (input) =>
        convertsOrNamesTheItem(() => fromOpenAIMessages(input as OpenAIChatMessage[])),
      ),
      { numRuns: RUNS },
    );
  });

  it('fromResponsesItems', () => {
    fc.assert(
      fc.property(hostileMessages, (input) =>
        convertsOrNamesTheItem(() => fromResponsesItems(input as ResponsesItem[])),
      ),
      { numRuns: RUNS },
    );
  });

  it('fromAnthropicMessages', () => {
    const input = fc.oneof(
      {
        weight: 6,
        arbitrary: fc.record(
          { system: hostileValue, messages: hostileMessages },
          { requiredKeys: ['messages'] },
        ),
      },
      { weight: 1, arbitrary: hostileValue },
    );
    fc.assert(
      fc.property(input, (value) =>
        convertsOrNamesTheItem(() => fromAnthropicMessages(value as AnthropicInput)),
      ),
      { numRuns: RUNS },
    );
  });

  it('fromModelMessages', () => {
    fc.assert(
      fc.property(hostileMessages, (input) =>
        convertsOrNamesTheItem(() => fromModelMessages(input as never)),
      ),
      { numRuns: RUNS },
    );
  });

  it('the writers, given mem-like messages with hostile content, tool calls and metadata', () => {
    fc.assert(
      fc.property(hostileMemMessages, (input) => {
        const messages = input as Message[];
        convertsOrNamesTheItem(() => toOpenAIMessages(messages));
        convertsOrNamesTheItem(() => toResponsesInput(messages));
        convertsOrNamesTheItem(() => toAnthropicMessages(messages));
        convertsOrNamesTheItem(() => toModelMessages(messages));
        convertsOrNamesTheItem(() => toModelPrompt(messages));
      }),
      { numRuns: RUNS },
    );
  });

  it('each reader, given one hostile message at a time', () => {
    fc.assert(
      fc.property(hostileMessage, (message) => {
        convertsOrNamesTheItem(() => fromOpenAIMessages([message] as OpenAIChatMessage[]));
        convertsOrNamesTheItem(() => fromResponsesItems([message] as ResponsesItem[]));
        convertsOrNamesTheItem(() =>
          fromAnthropicMessages({ messages: [message] } as AnthropicInput),
        );
        convertsOrNamesTheItem(() => fromModelMessages([message] as never));
      }),
      { numRuns: RUNS },
    );
  });
});
