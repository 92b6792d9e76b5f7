import type { MessageCreateParamsNonStreaming } from '@anthropic-ai/sdk/resources/messages';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Message, messageText } from '../message.ts';
import { memConversation } from './__fixtures__/mem-arbitraries.ts';
import { anthropicShape } from './__fixtures__/mem-shapes.ts';
import { expectConversionError } from './__fixtures__/test-helpers.ts';
import { fromAnthropicMessages, toAnthropicMessages } from './anthropic.ts';
import type { AnthropicInput } from './anthropic-types.ts';

/** The text of an Anthropic `system` param, its blocks' texts run together. */
const systemText = (system: unknown): string =>
  system === undefined
    ? ''
    : typeof system === 'string'
      ? system
      : (system as { text: string }[]).map((b) => b.text).join('');

describe('Anthropic system content lives in the top-level system field only', () => {
  it('refuses a system role inside messages, naming the index and field and saying to pass it as system', () => {
    const input: AnthropicInput = {
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'system', content: 'From now on, answer in German.' },
      ],
    };
    expectConversionError(() => fromAnthropicMessages(input), 'messages[1].role is "system"');
    expectConversionError(() => fromAnthropicMessages(input), 'top-level field');
    expectConversionError(
      () => fromAnthropicMessages({ messages: [{ role: 'system', content: [] }] }),
      'fromAnthropicMessages({ system, messages })',
    );
  });

  it('reads the top-level system as a leading system message, string or text blocks', () => {
    const fromString = fromAnthropicMessages({
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(fromString.map((m) => [m.role, messageText(m)])).toStrictEqual([
      ['system', 'Be brief.'],
      ['user', 'Hi'],
    ]);
    const blocks = [{ type: 'text', text: 'Be brief.' }];
    const fromBlocks = fromAnthropicMessages({ system: blocks, messages: [] });
    expect(fromBlocks[0]).toMatchObject({ role: 'system' });
  });

  it('writes every system message to system, in order, wherever it stands, and never one into messages', () => {
    const at = (id: string, role: Message['role'], content: string, extra = {}): Message => ({
      id,
      role,
      content,
      createdAt: 0,
      ...extra,
    });
    const messages: Message[] = [
      at('s1', 'system', 'Be brief.'),
      at('u1', 'user', 'Hi'),
      at('s2', 'system', 'Summary: order 1042.', {
        // Metadata from an older version, or a residue claiming the system role: both ignored.
        metadata: {
          'mem.anthropic.placement': 'message',
          'mem.anthropic.message': { set: { role: 'system' } },
        },
      }),
      at('a1', 'assistant', 'Hello!', {
        metadata: { 'mem.anthropic.message': { set: { role: 'system' } } },
      }),
      at('s3', 'system', 'Answer in German.'),
      at('u2', 'user', 'Danke'),
    ];
    const prompt = toAnthropicMessages(messages);
    expect(prompt).toStrictEqual({
      system: [
        { type: 'text', text: 'Be brief.' },
        { type: 'text', text: 'Summary: order 1042.' },
        { type: 'text', text: 'Answer in German.' },
      ],
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello!' },
        { role: 'user', content: 'Danke' },
      ],
    });
    const request: Pick<MessageCreateParamsNonStreaming, 'system' | 'messages'> = prompt;
    expect(request.messages.every((m) => m.role === 'user' || m.role === 'assistant')).toBe(true);
  });

  it('any conversation with system messages anywhere: messages hold only user and assistant, system holds every system text in order', () => {
    const withSystems = memConversation(anthropicShape).chain((messages) =>
      fc
        .array(fc.tuple(fc.nat(messages.length), fc.stringMatching(/^[a-z ]{1,12}$/)), {
          maxLength: 3,
        })
        .map((inserts) => {
          const out = [...messages];
          inserts.forEach(([at, text], k) => {
            const system: Message = { id: `sys${k}`, role: 'system', content: text, createdAt: 0 };
            out.splice(Math.min(at, out.length), 0, system);
          });
          return out;
        }),
    );
    fc.assert(
      fc.property(withSystems, (messages) => {
        const prompt = toAnthropicMessages(messages);
        expect(prompt.messages.every((m) => m.role === 'user' || m.role === 'assistant')).toBe(
          true,
        );
        const system = messages.filter((m) => m.role === 'system');
        const text = system.map((m) => messageText(m).replaceAll('\n', '')).join('');
        expect(systemText(prompt.system).replaceAll('\n', '')).toBe(text);
      }),
      { numRuns: 150 },
    );
  });
});
