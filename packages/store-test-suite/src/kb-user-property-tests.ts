import type { KnowledgeBase, KnowledgeChunk, KnowledgeSearchOptions } from '@mem/core/backend';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { useKnowledgeBases } from './kb-harness.ts';
import type { KnowledgeBaseFactory, KnowledgeBaseSuiteOptions } from './kb-suite-options.ts';
import { userChunk } from './kb-user-tests.ts';

const USERS = ['ann', 'bob', 'cy'] as const;
/** Three sessions per user, and one session without a user. */
const SESSIONS: readonly { sessionId: string; userId: string | undefined }[] = [
  ...USERS.flatMap((userId) => [0, 1, 2].map((i) => ({ sessionId: `${userId}-${i}`, userId }))),
  { sessionId: 'nobody', userId: undefined },
];
/** Words no analyzer stems, folds or drops, so "shares a word" means the same to every mode. */
const WORDS = ['apple', 'river', 'cobalt', 'falcon', 'marble', 'violin', 'tundra', 'quartz'];

const words = fc.uniqueArray(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 });
const chunkArb = fc.record({
  session: fc.nat({ max: SESSIONS.length - 1 }),
  id: fc.constantFrom('c0', 'c1', 'c2', 'c3'),
  words,
});
const userArb = fc.constantFrom<string | undefined>(...USERS, undefined);
const sessionArb = fc.option(fc.nat({ max: SESSIONS.length - 1 }), { nil: undefined });
const operation = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant('add' as const),
      chunks: fc.array(chunkArb, { minLength: 1, maxLength: 8 }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant('search' as const),
      user: userArb,
      session: sessionArb,
      words,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('deleteUser' as const),
      user: fc.constantFrom(...USERS),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('deleteSession' as const),
      user: fc.constantFrom(...USERS),
      session: fc.nat({ max: SESSIONS.length - 1 }),
    }),
  },
);

type Model = Map<string, KnowledgeChunk>;
const keyOf = (chunk: KnowledgeChunk) => `${chunk.metadata.sessionId}\u0000${chunk.id}`;
const inScope = (chunk: KnowledgeChunk, userId?: string, sessionId?: string) =>
  (userId === undefined || chunk.metadata.userId === userId) &&
  (sessionId === undefined || chunk.metadata.sessionId === sessionId);
const countOf = (model: Model, userId?: string, sessionId?: string) =>
  [...model.values()].filter((c) => inScope(c, userId, sessionId)).length;

/** The counts a knowledge base reports per user, for the userless session, and in all. */
async function census(kb: KnowledgeBase, collection: string): Promise<number[]> {
  return Promise.all([
    ...USERS.map((userId) => kb.count(collection, { userId })),
    kb.count(collection, { sessionId: 'nobody' }),
    kb.count(collection),
  ]);
}
const modelCensus = (model: Model) => [
  ...USERS.map((userId) => countOf(model, userId)),
  countOf(model, undefined, 'nobody'),
  model.size,
];

/**
 * A property test of user scoping: random chunks of three users with three sessions each (and a
 * session without a user), random searches and deletes. Every search with `userId` returns only
 * that user's chunks — exactly those in scope that share a word with the query — and deleting a
 * user leaves `count({ userId })` at 0 and every other count as it was.
 */
export function knowledgeBaseUserPropertyTests(
  createKnowledgeBase: KnowledgeBaseFactory,
  options: KnowledgeBaseSuiteOptions = {},
): void {
  describe('knowledge base users, property', () => {
    const bases = useKnowledgeBases(createKnowledgeBase, options);

    it("a search by user returns only that user's chunks; deleting a user removes all of theirs and nothing else", async () => {
      const kb = await bases.open();
      let run = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 12 }), async (ops) => {
          const collection = `users-${run++}`;
          const model: Model = new Map();
          let createdAt = 1;
          for (const step of ops) {
            if (step.op === 'add') {
              const chunks = step.chunks.map(({ session, id, words: text }) => {
                const { sessionId, userId } = SESSIONS[session] as (typeof SESSIONS)[number];
                return userChunk(id, text.join(' '), sessionId, userId, { createdAt: createdAt++ });
              });
              await kb.add(collection, chunks);
              for (const chunk of chunks) model.set(keyOf(chunk), chunk);
            } else if (step.op === 'search') {
              const sessionId =
                step.session === undefined ? undefined : SESSIONS[step.session]?.sessionId;
              const search: KnowledgeSearchOptions = { topK: 50 };
              if (sessionId !== undefined) search.sessionId = sessionId;
              if (step.user !== undefined) search.userId = step.user;
              const hits = await kb.search(collection, step.words.join(' '), search);
              for (const hit of hits) {
                if (step.user !== undefined) expect(hit.chunk.metadata.userId).toBe(step.user);
                expect(hit.chunk).toStrictEqual(model.get(keyOf(hit.chunk)));
              }
              const expected = [...model.values()]
                .filter((c) => inScope(c, step.user, sessionId))
                .filter((c) => step.words.some((w) => c.text.split(' ').includes(w)))
                .map(keyOf)
                .sort();
              expect(hits.map((h) => keyOf(h.chunk)).sort()).toStrictEqual(expected);
            } else {
              const sessionId =
                step.op === 'deleteSession' ? SESSIONS[step.session]?.sessionId : undefined;
              const before = await census(kb, collection);
              const filter =
                sessionId === undefined ? { userId: step.user } : { sessionId, userId: step.user };
              expect(await kb.delete(collection, filter)).toBe(
                countOf(model, step.user, sessionId),
              );
              for (const [key, chunk] of model) {
                if (inScope(chunk, step.user, sessionId)) model.delete(key);
              }
              if (sessionId === undefined) {
                // The user is gone; every other user's count and the userless one are unchanged.
                const after = await census(kb, collection);
                const user = USERS.indexOf(step.user);
                expect(after[user]).toBe(0);
                const unchanged = (counts: number[]) =>
                  counts.filter((_, i) => i !== user).slice(0, -1);
                expect(unchanged(after)).toStrictEqual(unchanged(before));
              }
            }
            expect(await census(kb, collection)).toStrictEqual(modelCensus(model));
          }
        }),
        { numRuns: 60 },
      );
    });
  });
}
