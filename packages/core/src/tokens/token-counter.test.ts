import fc from 'fast-check';
import * as cl100k from 'gpt-tokenizer/model/gpt-4-turbo';
import * as gpt4o from 'gpt-tokenizer/model/gpt-4o';
import { describe, expect, it } from 'vitest';
import type { Message } from '../model/message.ts';
import { createTokenCounter, withTokenCount } from './token-counter.ts';

type Plain = { role: 'system' | 'user' | 'assistant'; content: string; name?: string };
const plain = fc.record(
  {
    role: fc.constantFrom('system' as const, 'user' as const, 'assistant' as const),
    content: fc.string({ unit: 'grapheme', maxLength: 200 }),
    name: fc.stringMatching(/^[a-z]{1,12}$/),
  },
  { requiredKeys: ['role', 'content'] },
);
const asMessage = (m: Plain, i: number): Message => ({ id: `m${i}`, createdAt: i, ...m });

describe('createTokenCounter', () => {
  it('agrees with gpt-tokenizer chat counting (o200k and cl100k)', () => {
    for (const [model, api] of [
      ['gpt-4o', gpt4o],
      ['gpt-4-turbo', cl100k],
    ] as const) {
      const counter = createTokenCounter({ model });
      expect(counter.encoding).toBe(model === 'gpt-4o' ? 'o200k_base' : 'cl100k_base');
      fc.assert(
        fc.property(fc.array(plain, { minLength: 1, maxLength: 8 }), (chat) => {
          const ours = chat.reduce(
            (s, m, i) => s + counter.countMessage(asMessage(m, i)),
            counter.replyPrimingTokens,
          );
          expect(ours).toBe(api.countChatCompletionTokens!({ messages: chat }));
        }),
        { numRuns: 100 },
      );
    }
  });

  it('matches encodeChat exactly for gpt-4o', () => {
    const counter = createTokenCounter({ model: 'gpt-4o' });
    fc.assert(
      fc.property(
        fc.array(
          plain.map(({ name: _n, ...m }) => m),
          { minLength: 1, maxLength: 6 },
        ),
        (chat) => {
          const ours = chat.reduce(
            (s, m, i) => s + counter.countMessage(asMessage(m, i)),
            counter.replyPrimingTokens,
          );
          expect(ours).toBe(gpt4o.encodeChat(chat).length);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('counts tool-call names and arguments like a function_call', () => {
    const counter = createTokenCounter({ model: 'gpt-4o' });
    const args = JSON.stringify({ city: 'Lisbon', days: 3, units: 'metric' });
    const call: Message = {
      id: 'a',
      createdAt: 0,
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'c1', name: 'get_weather', arguments: args }],
    };
    const expected = gpt4o.countChatCompletionTokens!({
      messages: [
        { role: 'assistant', content: '', function_call: { name: 'get_weather', arguments: args } },
      ],
    });
    expect(counter.countMessage(call) + counter.replyPrimingTokens).toBe(expected);
    const two: Message = {
      ...call,
      toolCalls: [call.toolCalls![0]!, { id: 'c2', name: 'get_weather', arguments: args }],
    };
    expect(counter.countMessage(two) - counter.countMessage(call)).toBe(
      gpt4o.countTokens('get_weather') + gpt4o.countTokens(args) + 3,
    );
  });

  it('counts special-token markers in user text as plain text instead of throwing', () => {
    const counter = createTokenCounter();
    const n = counter.countText('say <|endoftext|> and <|im_start|>');
    expect(n).toBeGreaterThan(6);
  });

  it('counts content parts: text summed, media at a fixed documented price', () => {
    const counter = createTokenCounter();
    const base: Message = { id: 'x', createdAt: 0, role: 'user', content: 'hello world' };
    const parts: Message = {
      ...base,
      content: [
        { type: 'text', text: 'hello world' },
        { type: 'image', image: 'https://x/y.png', detail: 'low' },
      ],
    };
    expect(counter.countMessage(parts) - counter.countMessage(base)).toBe(85);
    const custom = createTokenCounter({ mediaTokens: () => 7 });
    expect(custom.countMessage(parts) - custom.countMessage(base)).toBe(7);
  });

  it('keeps a message counted once: withTokenCount never recounts', () => {
    let calls = 0;
    const real = createTokenCounter();
    const spy = {
      ...real,
      countMessage: (m: Message) => {
        calls++;
        return real.countMessage(m);
      },
    };
    const counted = withTokenCount(
      { id: 'a', createdAt: 0, role: 'user', content: 'hi there' },
      spy,
    );
    expect(withTokenCount(counted, spy)).toBe(counted);
    expect(calls).toBe(1);
  });

  it('rejects an unknown encoding with a clear error', () => {
    expect(() => createTokenCounter({ encoding: 'p50k' as never })).toThrow(
      /unknown encoding "p50k"/,
    );
  });
});
