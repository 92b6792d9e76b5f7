import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunk } from './__fixtures__/knowledge-chunks.ts';
import { Bm25Index, type ScoredChunk } from './bm25-index.ts';
import type { KnowledgeChunk } from './knowledge-base-spec.ts';

const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'zeta', 'theta'];
const USERS = ['u1', 'u2', 'u3'];

function owned(id: string, sessionId: string, userId: string | undefined, text: string) {
  const base = chunk(id, text, { sessionId, createdAt: Number(id.slice(1)) });
  return userId === undefined ? base : { ...base, metadata: { ...base.metadata, userId } };
}

const key = (h: ScoredChunk) => `${h.chunk.metadata.sessionId}/${h.chunk.id}:${h.score}`;
const inScope = (c: KnowledgeChunk, sessionId?: string, userId?: string) =>
  (sessionId === undefined || c.metadata.sessionId === sessionId) &&
  (userId === undefined || c.metadata.userId === userId);

describe('Bm25Index users', () => {
  it('a search by user (and session) is the unscoped ranking filtered to it, after any writes', () => {
    const word = fc.constantFrom(...WORDS);
    const step = fc.oneof(
      fc.record({
        kind: fc.constant('add' as const),
        id: fc.integer({ min: 0, max: 15 }),
        session: fc.constantFrom('s1', 's2', 's3'),
        // Chunks of one session may belong to different users, or to none.
        user: fc.option(fc.constantFrom(...USERS), { nil: undefined }),
        text: fc.array(word, { minLength: 1, maxLength: 8 }).map((w) => w.join(' ')),
      }),
      fc.record({
        kind: fc.constant('remove' as const),
        id: fc.integer({ min: 0, max: 15 }),
        session: fc.constantFrom('s1', 's2', 's3'),
      }),
      fc.record({
        kind: fc.constant('search' as const),
        query: fc.uniqueArray(word, { minLength: 1, maxLength: 3 }),
        topK: fc.integer({ min: 1, max: 4 }),
        session: fc.option(fc.constantFrom('s1', 's2', 's3'), { nil: undefined }),
        user: fc.constantFrom(...USERS, 'nobody'),
      }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        const index = new Bm25Index();
        for (const s of steps) {
          if (s.kind === 'add') {
            index.add([owned(`c${s.id}`, s.session, s.user, s.text)]);
          } else if (s.kind === 'remove') {
            const entry = index.sessions.get(s.session)?.get(`c${s.id}`);
            if (entry !== undefined) index.remove([entry]);
          } else {
            const everything = index.search(s.query, 1_000);
            const scoped = index.search(s.query, s.topK, s.session, s.user);
            const expected = everything.filter((h) => inScope(h.chunk, s.session, s.user));
            expect(scoped.map(key)).toEqual(expected.slice(0, s.topK).map(key));
          }
          // The per-user index holds exactly the chunks carrying each user.
          const live = [...index.sessions.values()].flatMap((m) => [...m.values()]);
          for (const user of USERS) {
            const ids = live.filter((e) => e.chunk.metadata.userId === user).map((e) => e.slot);
            const indexed = [...(index.users.get(user) ?? [])].map((e) => e.slot);
            expect(indexed.sort()).toEqual(ids.sort());
            if (ids.length === 0) expect(index.users.has(user)).toBe(false);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('keeps each slot’s user through renumbering after mass removal', () => {
    const index = new Bm25Index();
    const all = Array.from({ length: 3000 }, (_, i) =>
      owned(`c${i}`, `s${i % 5}`, i % 4 === 3 ? undefined : USERS[i % 3], `alpha item${i % 40}`),
    );
    index.add(all);
    const doomed = all
      .filter((_, i) => i % 3 !== 0)
      .map((c) => index.sessions.get(c.metadata.sessionId)?.get(c.id))
      .filter((e) => e !== undefined);
    index.remove(doomed);
    const kept = all.filter((_, i) => i % 3 === 0);
    const fresh = new Bm25Index();
    fresh.add(kept);
    for (const user of [...USERS, 'nobody']) {
      for (const session of [undefined, 's0', 's3']) {
        const got = index.search(['alpha', 'item7'], 20, session, user);
        expect(got.every((h) => inScope(h.chunk, session, user))).toBe(true);
        expect(got.map(key)).toEqual(fresh.search(['alpha', 'item7'], 20, session, user).map(key));
      }
      const count = kept.filter((c) => c.metadata.userId === user).length;
      expect(index.users.get(user)?.size ?? 0).toBe(count);
    }
  });

  it('finds a user’s chunks when every chunk is theirs, and narrows again once others arrive', () => {
    const index = new Bm25Index();
    index.add([owned('c1', 's1', 'u1', 'alpha beta'), owned('c2', 's2', 'u1', 'alpha')]);
    expect(index.search(['alpha'], 5, undefined, 'u1').map((h) => h.chunk.id)).toEqual([
      'c2',
      'c1',
    ]);
    expect(index.search(['alpha'], 5, undefined, 'u2')).toEqual([]);
    index.add([owned('c3', 's1', undefined, 'alpha')]);
    expect(index.search(['alpha'], 5, 's1', 'u1').map((h) => h.chunk.id)).toEqual(['c1']);
  });
});
