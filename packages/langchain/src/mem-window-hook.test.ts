import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  SystemMessage,
  type ToolMessage,
} from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { createTokenCounter, MemValidationError } from '@mem/core';
import { promptProblems } from '@mem/core/strategies';
import { generateConversation } from '@mem/core/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedChatModel } from './__fixtures__/scripted-chat-model.ts';
import { fromLangChainMessages } from './convert/from-langchain.ts';
import { toLangChainMessages } from './convert/to-langchain.ts';
import { memWindowHook } from './mem-window-hook.ts';

const counter = createTokenCounter();
/** Prompt tokens as mem counts them: every message plus reply priming. */
const promptTokens = (messages: BaseMessage[]) =>
  fromLangChainMessages(messages).reduce((sum, m) => sum + counter.countMessage(m), 0) +
  counter.replyPrimingTokens;
const problems = (messages: BaseMessage[]) => promptProblems(fromLangChainMessages(messages));

/** A past conversation with a tool call in every turn, as LangChain messages. */
const pastTurns = (interactions: number, seed = 1) =>
  toLangChainMessages(generateConversation({ interactions, seed }));

const getWeather = tool(async ({ city }) => `18°C and sunny in ${city}.`, {
  name: 'get_weather',
  description: 'Current weather of a city.',
  schema: z.object({ city: z.string() }),
});

describe('memWindowHook as the preModelHook of createReactAgent', () => {
  it('sends the model the newest turns within the budget, and leaves the thread whole', async () => {
    const past = pastTurns(30);
    const question = new HumanMessage('What is the weather in Lisbon?');
    const llm = new ScriptedChatModel([
      new AIMessage({
        content: '',
        tool_calls: [
          { type: 'tool_call', id: 'call_lisbon', name: 'get_weather', args: { city: 'Lisbon' } },
        ],
      }),
      new AIMessage('It is 18°C and sunny in Lisbon.'),
    ]);
    const agent = createReactAgent({
      llm,
      tools: [getWeather],
      preModelHook: memWindowHook({ maxTokens: 600 }),
    });

    const result = await agent.invoke({ messages: [...past, question] });

    expect(result.messages).toHaveLength(past.length + 4);
    expect(result.messages.at(-1)?.text).toBe('It is 18°C and sunny in Lisbon.');
    expect(llm.inputs).toHaveLength(2);
    for (const input of llm.inputs) {
      expect(promptTokens(input)).toBeLessThanOrEqual(600);
      expect(problems(input)).toEqual([]);
      expect(input.length).toBeLessThan(past.length);
    }
    // The second call sees the tool call and its result, right after the question.
    const second = llm.inputs[1] ?? [];
    expect(second.slice(-3).map((m) => m.type)).toEqual(['human', 'ai', 'tool']);
    expect((second.at(-1) as ToolMessage).tool_call_id).toBe('call_lisbon');
    expect(second.at(-3)).toBe(result.messages[past.length]);
    // Older turns come whole: the model's first message is a user message from the past.
    expect(second[0]?.type).toBe('human');
    expect(past).toContain(second[0]);
  });

  it('keeps system messages and the same LangChain objects', () => {
    const system = new SystemMessage('You are terse.');
    const messages = [system, ...pastTurns(3)];
    const { llmInputMessages } = memWindowHook({ maxTokens: 100_000 })({ messages });
    expect(llmInputMessages).toHaveLength(messages.length);
    for (const [i, m] of llmInputMessages.entries()) expect(m).toBe(messages[i]);
  });

  it('never exceeds the budget nor separates a tool call from its result (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 1000 }),
        fc.integer({ min: 60, max: 1500 }),
        (turns, seed, maxTokens) => {
          const messages = toLangChainMessages(
            generateConversation({ interactions: turns, seed, toolCallRate: 0.6 }),
          );
          let out: BaseMessage[];
          try {
            out = memWindowHook({ maxTokens })({ messages }).llmInputMessages;
          } catch (error) {
            // Only when even the newest user message is over the budget.
            expect(error).toBeInstanceOf(MemValidationError);
            const newestUser = messages.findLast((m) => m.type === 'human');
            expect(promptTokens(newestUser === undefined ? [] : [newestUser])).toBeGreaterThan(
              maxTokens,
            );
            return;
          }
          expect(promptTokens(out)).toBeLessThanOrEqual(maxTokens);
          expect(problems(out)).toEqual([]);
          expect(out).toContain(messages.findLast((m) => m.type === 'human'));
          for (const m of out) expect(messages).toContain(m);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('answers a growing thread as a fresh hook would (each message counted once, by object)', () => {
    const thread = pastTurns(40, 7);
    const hook = memWindowHook({ maxTokens: 700 });
    for (let end = 1; end <= thread.length; end += 7) {
      const messages = thread.slice(0, end);
      expect(hook({ messages }).llmInputMessages).toEqual(
        memWindowHook({ maxTokens: 700 })({ messages }).llmInputMessages,
      );
    }
  });

  it('drops an orphan tool call instead of sending it without its result', () => {
    const messages = [
      new HumanMessage('Book a table.'),
      new AIMessage({ content: 'Booking.', tool_calls: [{ id: 'c9', name: 'book', args: {} }] }),
    ];
    const { llmInputMessages } = memWindowHook({ maxTokens: 1000 })({ messages });
    expect(problems(llmInputMessages)).toEqual([]);
    expect(llmInputMessages[0]).toBe(messages[0]);
    expect(llmInputMessages[1]).toMatchObject({ content: 'Booking.', tool_calls: [] });
  });

  it('takes a profile window with conditions, and refuses a bad budget', () => {
    const hook = memWindowHook({
      profile: {
        short_term_memory_strategy: [
          {
            memory_strategy_id: 'max_tokens',
            memory_max_tokens: 2000,
            conditions: ["message.role != 'tool'"],
          },
        ],
      },
    });
    const { llmInputMessages } = hook({ messages: pastTurns(2) });
    expect(llmInputMessages.some((m) => m.type === 'tool')).toBe(false);
    expect(problems(llmInputMessages)).toEqual([]);
    expect(() => memWindowHook({ maxTokens: 0 })).toThrow(
      expect.objectContaining({ field: 'maxTokens' }),
    );
    expect(() => memWindowHook({ profile: {} })).toThrow(MemValidationError);
    expect(() =>
      memWindowHook({ maxTokens: 5 })({
        messages: [new HumanMessage('a long question '.repeat(20))],
      }),
    ).toThrow(/raise maxTokens/);
  });
});
