import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseProfile } from '../config/parse-profile.ts';
import type { KnowledgeHit } from '../knowledge/knowledge-base-spec.ts';
import { createMemoryStore } from '../store/memory-store.ts';
import { createTokenCounter } from '../tokens/token-counter.ts';
import type { EngineContext } from './engine-context.ts';
import { EngineEvents } from './engine-events.ts';
import { knowledgeMessage } from './knowledge-message.ts';

const counter = createTokenCounter();
const ctx: EngineContext = {
  profile: parseProfile({}),
  store: createMemoryStore(),
  summarizer: undefined,
  summarizerTimeoutMs: null,
  knowledgeBase: undefined,
  counter,
  events: new EngineEvents(),
  compressionRatio: 0.3,
  maxSummaryTokens: 2000,
  now: () => 0,
  newId: () => 'x',
};
const hit = (text: string, i: number): KnowledgeHit => ({
  chunk: {
    id: `c${i}`,
    text,
    tokenCount: counter.countText(text),
    metadata: { sessionId: 's', kind: 'archive', messageIds: [], createdAt: 0 },
  },
  score: 1,
  rank: i + 1,
});

describe('knowledgeMessage', () => {
  it('prices the message from the indexed chunk counts, never below its real count', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'grapheme', maxLength: 120 }), { minLength: 1, maxLength: 5 }),
        (texts) => {
          const { message } = knowledgeMessage(ctx, [], texts.map(hit), undefined, []);
          expect(message).toBeDefined();
          expect(message!.tokenCount).toBeGreaterThanOrEqual(counter.countMessage(message!));
          expect(message!.tokenCount - counter.countMessage(message!)).toBeLessThanOrEqual(
            4 * texts.length,
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it('drops the lowest-ranked hits until the tightest window still holds the newest question', () => {
    const profile = parseProfile({
      short_term_memory_strategy: [{ memory_strategy_id: 'max_tokens', memory_max_tokens: 120 }],
    });
    const hits = ['alpha '.repeat(30), 'beta '.repeat(30), 'gamma '.repeat(30)].map(hit);
    const user = { id: 'u', role: 'user' as const, content: 'q', createdAt: 0, tokenCount: 8 };
    const { message, hits: kept } = knowledgeMessage(ctx, [], hits, user, profile.shortTerm);
    expect(kept.map((h) => h.chunk.id)).toEqual(['c0', 'c1']);
    expect(message!.tokenCount + user.tokenCount + counter.replyPrimingTokens).toBeLessThanOrEqual(
      120,
    );
  });
});
