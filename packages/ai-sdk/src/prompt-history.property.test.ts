import type { Message } from '@mem/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fingerprint } from './message-fingerprint.ts';
import type { PromptMessageLike } from './middleware-types.ts';
import { promptHistory } from './prompt-history.ts';
import { fromPrompt } from './prompt-messages.ts';

/* Strings with the characters that matter to a text join and to JSON: empty, newlines, quotes. */
const text = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom('', '\n', '"', '\\', 'a\nb', '\u2028'),
);
const textPart = fc.oneof(
  fc.record({ type: fc.constant('text'), text }),
  fc.record({ type: fc.constant('text'), text, providerOptions: fc.constant(undefined) }),
);
/* Parts that are not plain text: a prompt holding one is converted whole. */
const otherPart = fc.oneof(
  fc.record({ type: fc.constant('reasoning'), text }),
  fc.record({
    type: fc.constant('text'),
    text,
    providerOptions: fc.constant({ openai: { itemId: 'x' } }),
  }),
  fc.record({ type: fc.constant('file'), data: text, mediaType: fc.constant('text/plain') }),
);
const plainMessage = fc.oneof(
  fc.record({ role: fc.constant('system'), content: text }),
  fc.record({
    role: fc.constantFrom('user', 'assistant'),
    content: fc.oneof(text, fc.array(textPart, { maxLength: 3 })),
  }),
);
const anyMessage = fc.oneof(
  plainMessage,
  fc.record({
    role: fc.constantFrom('user', 'assistant'),
    content: fc.array(fc.oneof(textPart, otherPart), { minLength: 1, maxLength: 3 }),
  }),
  fc.record({
    role: fc.constant('assistant'),
    content: fc.constant([
      { type: 'text', text: 'Checking.' },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'weather', input: { city: 'Paris' } },
    ]),
  }),
  fc.record({
    role: fc.constant('tool'),
    content: fc.constant([
      {
        type: 'tool-result',
        toolCallId: 'c1',
        toolName: 'weather',
        output: { type: 'json', value: 18 },
      },
    ]),
  }),
);

/** What the middleware compared and stored before: the whole prompt converted, system aside. */
const converted = (prompt: readonly PromptMessageLike[]) =>
  fromPrompt(prompt).filter((m) => m.role !== 'system');
const withoutIdentity = (messages: readonly Message[]) =>
  messages.map(({ id: _id, createdAt: _at, ...rest }) => rest);

describe('promptHistory: the prompt as the middleware compares and stores it', () => {
  it('gives every prompt the fingerprints and messages of converting it whole', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.array(plainMessage, { maxLength: 8 }), fc.array(anyMessage, { maxLength: 6 })),
        fc.nat({ max: 8 }),
        (prompt, start) => {
          const whole = converted(prompt as PromptMessageLike[]);
          const history = promptHistory(prompt as PromptMessageLike[]);
          expect(history.length).toBe(whole.length);
          expect(history.fingerprints).toEqual(whole.map(fingerprint));
          const from = Math.min(start, whole.length);
          expect(withoutIdentity(history.from(from))).toEqual(withoutIdentity(whole.slice(from)));
        },
      ),
      { numRuns: 500 },
    );
  });
});
