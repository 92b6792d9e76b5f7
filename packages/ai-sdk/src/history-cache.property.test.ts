import { createInMemoryStore, createMemoryEngine } from '@mem/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alignHistory } from './history-alignment.ts';
import { keptResentPrefix, sessionHistory } from './history-cache.ts';
import { fingerprint } from './message-fingerprint.ts';
import type { PromptMessageLike } from './middleware-types.ts';
import { promptHistory } from './prompt-history.ts';
import { fromPrompt } from './prompt-messages.ts';
import { withoutIdentity } from './store-prompt.ts';

/* Few texts, so that prompts and stored messages often agree. */
const text = fc.constantFrom('a', 'b', '', 'a\nb', '"');
const message = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({ role: fc.constantFrom('user', 'assistant'), content: text }),
  },
  fc.record({
    role: fc.constantFrom('user', 'assistant'),
    content: fc.array(fc.record({ type: fc.constant('text'), text }), {
      minLength: 1,
      maxLength: 2,
    }),
  }),
  fc.record({ role: fc.constant('system'), content: text }),
  fc.record({
    role: fc.constant('assistant'),
    content: fc.constant([
      { type: 'reasoning', text: 'Thinking.' },
      { type: 'text', text: 'a' },
    ]),
  }),
  fc.record({
    role: fc.constant('assistant'),
    content: fc.constant([
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

describe('what the middleware keeps of a session', () => {
  it('finds the same re-sent run as comparing the fingerprints of the stored messages', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(message, { maxLength: 10 }),
        fc.nat({ max: 10 }),
        fc.array(message, { maxLength: 3 }),
        async (stored, cut, extra) => {
          const engine = createMemoryEngine({ store: createInMemoryStore(), profile: {} });
          const session = engine.session('s');
          const converted = fromPrompt(stored as PromptMessageLike[]);
          if (converted.length > 0) await session.append(converted.map(withoutIdentity));
          const read = (await session.messages()).filter((m) => m.role !== 'system');
          (await sessionHistory(engine, session)).remember(
            { messages: read, fingerprints: read.map(fingerprint), whole: true },
            10,
          );
          const kept = (await sessionHistory(engine, session)).kept;
          // The app re-sends a part of the conversation and adds to it.
          const prompt = promptHistory([...stored.slice(cut), ...extra] as PromptMessageLike[]);

          const expected = alignHistory(prompt.fingerprints, read.map(fingerprint), {
            whole: true,
          });
          if (converted.length === 0) expect(kept).toBeUndefined();
          else {
            expect(kept).toBeDefined();
            expect(keptResentPrefix(prompt, kept as NonNullable<typeof kept>)).toBe(
              expected.rule === 'resent' ? expected.keep : 0,
            );
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
