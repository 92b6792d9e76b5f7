import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseProfile } from '../config/parse-profile.ts';
import { TypedEmitter } from '../events/typed-emitter.ts';
import type { KnowledgeHit } from '../knowledge/knowledge-base-spec.ts';
import { messageText } from '../model/message.ts';
import { createInMemoryStore } from '../store/in-memory-store.ts';
import { longTermRegistry } from '../strategies/long-term/strategy-registry.ts';
import { createTokenCounter } from '../tokens/token-counter.ts';
import type { EngineContext } from './engine-context.ts';
import {
  KNOWLEDGE_HEADER,
  knowledgeMessage,
  knowledgeRoom,
  USER_KNOWLEDGE_HEADER,
} from './knowledge-message.ts';

const counter = createTokenCounter();
const ctx: EngineContext = {
  profile: parseProfile({}),
  strategies: longTermRegistry(),
  store: createInMemoryStore(),
  summarizer: undefined,
  summarizerTimeoutMs: null,
  knowledgeBase: undefined,
  counter,
  events: new TypedEmitter(),
  compressionRatio: 0.3,
  maxSummaryTokens: 2000,
  now: () => 0,
  newId: () => 'x',
};
const DAY = 86_400_000;
const hit = (text: string, i: number, sessionId: string, day: number): KnowledgeHit => ({
  chunk: {
    id: `c${i}`,
    text,
    tokenCount: counter.countText(text),
    metadata: {
      sessionId,
      userId: 'ana',
      kind: 'archive',
      messageIds: ['m1'],
      createdAt: Date.UTC(2026, 0, 1) + day * DAY,
    },
  },
  score: 1,
  rank: i + 1,
});

describe('knowledge from the user’s other sessions', () => {
  it('labels hits of another session with their date and session, leaves this session’s as before', () => {
    const hits = [
      hit('User: the ferry leaves at 07:40', 0, 'trip planning #2', 3),
      hit('User: my dog is called Miso', 1, 'here', 1),
    ];
    const room = { ...knowledgeRoom(ctx, [], [], [], 0.5, 10, 'here'), shown: new Set<string>() };
    const { message } = knowledgeMessage(ctx, hits, room);
    expect(messageText(message!).split('\n')).toEqual([
      USER_KNOWLEDGE_HEADER,
      '[2026-01-02 00:00]',
      'User: my dog is called Miso',
      '[2026-01-04 00:00, another conversation: tripplanning2]',
      'User: the ferry leaves at 07:40',
    ]);
    const own = knowledgeMessage(ctx, [hits[1]!], room).message!;
    expect(messageText(own).split('\n')[0]).toBe(KNOWLEDGE_HEADER);
  });

  it('a hit of another session whose message ids the window shows is still shown', () => {
    const room = { ...knowledgeRoom(ctx, [], [], [], 0.5, 10, 'here'), shown: new Set(['m1']) };
    const { hits } = knowledgeMessage(ctx, [hit('a', 0, 'there', 0), hit('b', 1, 'here', 0)], room);
    expect(hits.map((h) => h.chunk.id)).toEqual(['c0']);
  });

  it('prices the labelled message from the chunk counts, never below its real count', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            text: fc.string({ unit: 'grapheme', maxLength: 80 }),
            session: fc.constantFrom('here', 'a', 'support-17', 'x'.repeat(40), '  '),
            day: fc.integer({ min: 0, max: 3 }),
          }),
          { minLength: 1, maxLength: 6 },
        ),
        (specs) => {
          const room = knowledgeRoom(ctx, [], [], [], 0.5, 100, 'here');
          const hits = specs.map((s, i) => hit(s.text, i, s.session, s.day));
          const { message } = knowledgeMessage(ctx, hits, { ...room, shown: new Set() });
          expect(message).toBeDefined();
          const real = counter.countMessage(message!);
          expect(message!.tokenCount).toBeGreaterThanOrEqual(real);
          expect(message!.tokenCount - real).toBeLessThanOrEqual(4 * 2 * specs.length + 2);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('stays within a tight room with the labels counted', () => {
    const hits = Array.from({ length: 8 }, (_, i) =>
      hit(`User: fact number ${i} about the trip`, i, i % 2 === 0 ? 'here' : `s${i}`, i),
    );
    for (const tokens of [20, 40, 60, 90, 140]) {
      const room = { ...knowledgeRoom(ctx, [], [], [], 0.5, 100, 'here'), tokens };
      const { message } = knowledgeMessage(ctx, hits, { ...room, shown: new Set() });
      if (message !== undefined) expect(message.tokenCount).toBeLessThanOrEqual(tokens);
      expect(message === undefined).toBe(tokens < 40);
    }
  });
});
