import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseProfile } from '../config/parse-profile.ts';
import { TypedEmitter } from '../events/typed-emitter.ts';
import type { KnowledgeHit } from '../knowledge/knowledge-base-spec.ts';
import { createInMemoryStore } from '../store/in-memory-store.ts';
import { longTermRegistry } from '../strategies/long-term/strategy-registry.ts';
import { createTokenCounter } from '../tokens/token-counter.ts';
import type { EngineContext } from './engine-context.ts';
import { isRepeat, knowledgeMessage, knowledgeRoom, priceDayLines } from './knowledge-message.ts';

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
          const room = knowledgeRoom(ctx, [], [], [], 0.5, 100);
          const { message } = knowledgeMessage(ctx, texts.map(hit), room);
          expect(message).toBeDefined();
          expect(message!.tokenCount).toBeGreaterThanOrEqual(counter.countMessage(message!));
          expect(message!.tokenCount - counter.countMessage(message!)).toBeLessThanOrEqual(
            4 * texts.length + 2,
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
    const newest = { index: 0, messages: [user], tokenCount: 8, toolNames: [], hasError: false };
    const room = knowledgeRoom(ctx, [], [newest], profile.shortTerm, 0.5, 100);
    const { message, hits: kept } = knowledgeMessage(ctx, hits, room);
    expect(kept.map((h) => h.chunk.id)).toEqual(['c0', 'c1']);
    expect(message!.tokenCount + user.tokenCount + counter.replyPrimingTokens).toBeLessThanOrEqual(
      120,
    );
  });

  it('gives the window at most (1 - share) of what is left, and knowledge the rest', () => {
    const profile = parseProfile({
      short_term_memory_strategy: [{ memory_strategy_id: 'max_tokens', memory_max_tokens: 1000 }],
    });
    const turn = (i: number, tokens: number) => ({
      index: i,
      messages: [
        { id: `m${i}`, role: 'user' as const, content: 'x', createdAt: i, tokenCount: tokens },
      ],
      tokenCount: tokens,
      toolNames: [],
      hasError: false,
    });
    // 10 older turns of 100 tokens, the newest of 50; 1000 - 50 - priming left.
    const turns = [...Array.from({ length: 10 }, (_, i) => turn(i, 100)), turn(10, 50)];
    const rest = 1000 - 50 - counter.replyPrimingTokens;
    const half = knowledgeRoom(ctx, [], turns, profile.shortTerm, 0.5, 7);
    expect(half.maxHits).toBe(7);
    // The window claims the 4 newest older turns (400 <= rest / 2), knowledge gets the rest.
    expect(half.tokens).toBe(rest - 400);
    expect([...half.shown].sort()).toEqual(['m10', 'm6', 'm7', 'm8', 'm9']);
    const all = knowledgeRoom(ctx, [], turns, profile.shortTerm, 1, 7);
    expect(all.tokens).toBe(rest);
    const none = knowledgeRoom(ctx, [], turns, profile.shortTerm, 0, 7);
    expect(none.tokens).toBe(rest - 900);
  });

  it('repeats nothing the prompt shows, and lists what it keeps oldest first under a line per day', () => {
    const at = (ms: number, text: string, ids: string[], i: number): KnowledgeHit => ({
      ...hit(text, i),
      chunk: {
        ...hit(text, i).chunk,
        metadata: { sessionId: 's', kind: 'archive', messageIds: ids, createdAt: ms, start: ms },
      },
    });
    const day1 = Date.UTC(2026, 2, 9, 14, 5);
    const day2 = Date.UTC(2026, 2, 11, 9, 30);
    const hits = [
      at(day2, 'Lena: the race is on Sunday', ['a'], 0),
      at(day1, 'Tomas: I moved to Porto', ['b'], 1),
      at(day1 + 60_000, 'Lena: shown already', ['c'], 2),
      at(day1 + 120_000, 'Lena: the dog is called Miso', ['d'], 3),
    ];
    const room = { tokens: Number.POSITIVE_INFINITY, maxHits: 100, shown: new Set(['c']) };
    expect(isRepeat(hits[2]!, room.shown)).toBe(true);
    const { message, hits: kept } = knowledgeMessage(ctx, hits, room);
    expect(kept.map((h) => h.chunk.id)).toEqual(['c0', 'c1', 'c3']);
    expect(message!.content).toBe(
      [
        'Relevant memory from earlier in this conversation:',
        '[2026-03-09 14:05]',
        'Tomas: I moved to Porto',
        'Lena: the dog is called Miso',
        '[2026-03-11 09:30]',
        'Lena: the race is on Sunday',
      ].join('\n'),
    );
    expect(message!.tokenCount).toBeGreaterThanOrEqual(counter.countMessage(message!));
  });

  it('prices day lines at indexing as it would at the first context: the same message', () => {
    const dated = (i: number, start: number): KnowledgeHit => {
      const h = hit(`fact number ${i}`, i);
      return { ...h, chunk: { ...h.chunk, metadata: { ...h.chunk.metadata, start } } };
    };
    // Minutes, days, a fraction of a millisecond before midnight, and times Date cannot show.
    const starts = [
      0,
      59_999,
      60_000,
      86_399_999.5,
      -0.5,
      -60_000,
      8.64e15 + 1,
      Number.NaN,
      1.7e12,
    ];
    const hits = starts.map((start, i) => dated(i, start));
    const fresh = (): EngineContext => ({ ...ctx, counter: createTokenCounter() });
    const primed = fresh();
    priceDayLines(
      primed,
      hits.map((h) => h.chunk),
    );
    for (let n = 1; n <= hits.length; n++) {
      const some = hits.slice(0, n);
      const unprimed = fresh();
      const a = knowledgeMessage(primed, some, knowledgeRoom(primed, [], [], [], 0.5, 100));
      const b = knowledgeMessage(unprimed, some, knowledgeRoom(unprimed, [], [], [], 0.5, 100));
      expect(a).toEqual(b);
      expect(a.message!.tokenCount).toBeGreaterThanOrEqual(counter.countMessage(a.message!));
    }
  });
});
