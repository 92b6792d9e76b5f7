import type { KnowledgeBase, KnowledgeChunk } from '@mem/core/backend';
import { createWordVectorEmbedder } from '@mem/core/testing';
import { describe, expect, it } from 'vitest';
import { knowledgeChunk, searchIds, TEST_COLLECTION } from './kb-fixtures.ts';
import { useKnowledgeBases } from './kb-harness.ts';
import type { KnowledgeBaseFactory, KnowledgeBaseSuiteOptions } from './kb-suite-options.ts';

/** A chunk of `userId` (`undefined`: a chunk without a user) in `sessionId`. */
export function userChunk(
  id: string,
  text: string,
  sessionId: string,
  userId: string | undefined,
  metadata: Partial<KnowledgeChunk['metadata']> = {},
): KnowledgeChunk {
  const owner = userId === undefined ? {} : { userId };
  return knowledgeChunk(id, text, { sessionId, ...owner, ...metadata });
}

/**
 * Alice has two sessions, Bob one, and one session has no user. Bob's greyhound chunk matches
 * "greyhound Comet" better than any of Alice's (more occurrences, shorter).
 */
export const USER_CORPUS: readonly KnowledgeChunk[] = [
  userChunk('a1:0', 'Comet the greyhound won a ribbon at the dog show.', 'alice-1', 'alice', {
    messageIds: ['m1'],
  }),
  userChunk('a1:1', 'Alice prefers window seats on long flights.', 'alice-1', 'alice', {
    messageIds: ['m2'],
  }),
  userChunk(
    'a2:0',
    'Her old greyhound Comet hurt a paw running on the beach.',
    'alice-2',
    'alice',
    {
      messageIds: ['m1'],
      createdAt: 2,
    },
  ),
  userChunk('b1:0', 'greyhound Comet greyhound Comet greyhound', 'bob-1', 'bob', {
    messageIds: ['m1'],
  }),
  userChunk('b1:1', 'Bob booked window seats for the flight.', 'bob-1', 'bob'),
  userChunk('n1:0', 'Comet greyhound adoption shelter notes.', 'anon-1', undefined),
];

const QUERY = 'greyhound Comet';
const sorted = (ids: string[]) => [...ids].sort();

/**
 * Users (`mem.kb.v2`): chunks carry their user exactly; a search, count or delete with `userId`
 * sees that user's chunks in every session of theirs, never another user's nor one without a
 * user; `{ sessionId, userId }` needs both to match; bad user filters are refused.
 */
export function knowledgeBaseUserTests(
  createKnowledgeBase: KnowledgeBaseFactory,
  options: KnowledgeBaseSuiteOptions = {},
): void {
  describe('knowledge base users', () => {
    const bases = useKnowledgeBases(createKnowledgeBase, options);
    const seeded = async (): Promise<KnowledgeBase> => {
      const kb = await bases.open();
      await kb.add(TEST_COLLECTION, USER_CORPUS);
      return kb;
    };

    it('returns the user of a chunk exactly, and no user field on a chunk without one', async () => {
      const kb = await bases.open();
      const odd = [
        'Ann',
        'ann',
        'ann ',
        'user:ü 😀',
        "o'brien; --",
        '%',
        '*',
        '{tag}',
        'x'.repeat(512),
      ];
      const chunks = [
        ...odd.map((userId, i) => userChunk(`u${i}`, `quokka ${i}`, `s${i}`, userId)),
        userChunk('none', 'quokka none', 's-none', undefined),
      ];
      await kb.add(TEST_COLLECTION, chunks);
      const hits = await kb.search(TEST_COLLECTION, 'quokka', { topK: 20 });
      expect(hits).toHaveLength(chunks.length);
      for (const hit of hits) {
        expect(hit.chunk).toStrictEqual(chunks.find((c) => c.id === hit.chunk.id));
      }
      for (const [i, userId] of odd.entries()) {
        expect(await searchIds(kb, 'quokka', { userId, topK: 20 }), userId).toStrictEqual([
          `u${i}`,
        ]);
        expect(await kb.count(TEST_COLLECTION, { userId }), userId).toBe(1);
      }
      expect(await searchIds(kb, 'quokka', { userId: 'an', topK: 20 })).toStrictEqual([]);
    });

    it("searches by user across the user's sessions, never another user's or a chunk without a user", async () => {
      const kb = await seeded();
      expect(sorted(await searchIds(kb, QUERY, { topK: 10 }))).toStrictEqual([
        'a1:0',
        'a2:0',
        'b1:0',
        'n1:0',
      ]);
      expect(sorted(await searchIds(kb, QUERY, { userId: 'alice', topK: 10 }))).toStrictEqual([
        'a1:0',
        'a2:0',
      ]);
      expect(await searchIds(kb, QUERY, { userId: 'bob', topK: 10 })).toStrictEqual(['b1:0']);
      expect(await searchIds(kb, QUERY, { userId: 'carol', topK: 10 })).toStrictEqual([]);
      expect(sorted(await searchIds(kb, 'window seats', { userId: 'alice' }))).toStrictEqual([
        'a1:1',
      ]);
      // Bob's chunk is the best match overall, yet Alice's top hit is hers.
      if (kb.capabilities.lexical && !kb.capabilities.semantic) {
        expect(await searchIds(kb, QUERY, { topK: 1 })).toStrictEqual(['b1:0']);
      }
      const top = await kb.search(TEST_COLLECTION, QUERY, { topK: 1, userId: 'alice' });
      expect(top.map((h) => [h.rank, h.chunk.metadata.userId])).toStrictEqual([[1, 'alice']]);
      expect(await searchIds(kb, QUERY, { userId: 'alice', collectionId: 'other' })).toStrictEqual(
        [],
      );
    });

    it('with sessionId and userId, searches and counts only chunks matching both', async () => {
      const kb = await seeded();
      const both = { sessionId: 'alice-2', userId: 'alice', topK: 10 };
      expect(await searchIds(kb, QUERY, both)).toStrictEqual(['a2:0']);
      expect(await searchIds(kb, QUERY, { ...both, userId: 'bob' })).toStrictEqual([]);
      expect(await searchIds(kb, QUERY, { sessionId: 'anon-1', userId: 'alice' })).toStrictEqual(
        [],
      );
      expect(await kb.count(TEST_COLLECTION, { sessionId: 'alice-1', userId: 'alice' })).toBe(2);
      expect(await kb.count(TEST_COLLECTION, { sessionId: 'alice-1', userId: 'bob' })).toBe(0);
      expect(await kb.count(TEST_COLLECTION, { userId: 'alice' })).toBe(3);
      expect(await kb.count(TEST_COLLECTION, { userId: 'bob' })).toBe(2);
      expect(await kb.count(TEST_COLLECTION, { userId: 'carol' })).toBe(0);
      expect(await kb.count('other', { userId: 'alice' })).toBe(0);
      expect(await kb.count(TEST_COLLECTION)).toBe(USER_CORPUS.length);
    });

    it("deletes every chunk of a user in every session, and nothing of anyone else's", async () => {
      const kb = await seeded();
      expect(await kb.delete(TEST_COLLECTION, { userId: 'alice' })).toBe(3);
      expect(await kb.count(TEST_COLLECTION, { userId: 'alice' })).toBe(0);
      expect(await kb.count(TEST_COLLECTION, { sessionId: 'alice-1' })).toBe(0);
      expect(await kb.count(TEST_COLLECTION, { sessionId: 'alice-2' })).toBe(0);
      expect(await kb.count(TEST_COLLECTION, { userId: 'bob' })).toBe(2);
      expect(await kb.count(TEST_COLLECTION, { sessionId: 'anon-1' })).toBe(1);
      expect(await kb.count(TEST_COLLECTION)).toBe(3);
      expect(sorted(await searchIds(kb, `${QUERY} window`, { topK: 10 }))).toStrictEqual([
        'b1:0',
        'b1:1',
        'n1:0',
      ]);
      expect(await searchIds(kb, QUERY, { userId: 'alice' })).toStrictEqual([]);
      expect(await kb.delete(TEST_COLLECTION, { userId: 'alice' })).toBe(0);
      expect(await kb.delete('other', { userId: 'bob' })).toBe(0);
      // The user's ids can be indexed again.
      await kb.add(TEST_COLLECTION, [USER_CORPUS[0] as KnowledgeChunk]);
      expect(await searchIds(kb, QUERY, { userId: 'alice' })).toStrictEqual(['a1:0']);
    });

    it('deletes by session and user: only chunks matching both, with the id lists too', async () => {
      const kb = await seeded();
      const alice2 = { sessionId: 'alice-2', userId: 'alice' };
      expect(await kb.delete(TEST_COLLECTION, { ...alice2, userId: 'bob' })).toBe(0);
      // m1 is in both of Alice's sessions and in Bob's: only alice-2's chunk goes.
      expect(await kb.delete(TEST_COLLECTION, { ...alice2, messageIds: ['m1'] })).toBe(1);
      expect(await kb.count(TEST_COLLECTION)).toBe(USER_CORPUS.length - 1);
      expect(await kb.delete(TEST_COLLECTION, { sessionId: 'alice-1', userId: 'alice' })).toBe(2);
      expect(await kb.count(TEST_COLLECTION, { userId: 'alice' })).toBe(0);
      expect(await kb.count(TEST_COLLECTION, { userId: 'bob' })).toBe(2);
      expect(await kb.count(TEST_COLLECTION)).toBe(USER_CORPUS.length - 3);
    });

    it("matches each chunk's own user, also in a session holding chunks of several users", async () => {
      const kb = await bases.open();
      await kb.add(TEST_COLLECTION, [
        userChunk('x:a', 'lantern by the door', 'shared', 'alice'),
        userChunk('x:b', 'lantern in the shed', 'shared', 'bob'),
        userChunk('x:n', 'lantern on the porch', 'shared', undefined),
      ]);
      const shared = { sessionId: 'shared', topK: 10 };
      expect(await searchIds(kb, 'lantern', { ...shared, userId: 'bob' })).toStrictEqual(['x:b']);
      expect(await kb.count(TEST_COLLECTION, { sessionId: 'shared', userId: 'bob' })).toBe(1);
      expect(await kb.delete(TEST_COLLECTION, { sessionId: 'shared', userId: 'bob' })).toBe(1);
      expect(sorted(await searchIds(kb, 'lantern', shared))).toStrictEqual(['x:a', 'x:n']);
      // Identity stays (session, id): re-adding a chunk under another user moves it.
      await kb.add(TEST_COLLECTION, [userChunk('x:a', 'lantern by the gate', 'shared', 'bob')]);
      expect(await searchIds(kb, 'lantern', { userId: 'alice' })).toStrictEqual([]);
      expect(await searchIds(kb, 'lantern', { userId: 'bob' })).toStrictEqual(['x:a']);
      expect(await kb.count(TEST_COLLECTION, { userId: 'alice' })).toBe(0);
      expect(await kb.delete(TEST_COLLECTION, { userId: 'alice' })).toBe(0);
      expect(await kb.count(TEST_COLLECTION)).toBe(2);
      // A user's chunk re-added without a user leaves the user.
      await kb.add(TEST_COLLECTION, [userChunk('x:a', 'lantern by the gate', 'shared', undefined)]);
      expect(await kb.count(TEST_COLLECTION, { userId: 'bob' })).toBe(0);
      expect(await kb.delete(TEST_COLLECTION, { userId: 'bob' })).toBe(0);
      expect(await kb.count(TEST_COLLECTION)).toBe(2);
    });

    it("finds a paraphrase by meaning only in the user's own chunks, in semantic and hybrid mode", async () => {
      const embedder = createWordVectorEmbedder();
      for (const retrieval of ['semantic', 'hybrid'] as const) {
        const kb = await bases.open(undefined, { embedder, retrieval });
        await kb.add(TEST_COLLECTION, [
          // "bill reimbursement" shares no word with any chunk; it means "invoice refund".
          userChunk('a', 'invoice refund for the hotel', 'alice-1', 'alice'),
          userChunk('b', 'invoice refund', 'bob-1', 'bob'),
          userChunk('n', 'invoice refund', 'anon-1', undefined),
          userChunk('a-other', 'zebra crossing', 'alice-2', 'alice'),
        ]);
        const query = 'bill reimbursement';
        expect(sorted(await searchIds(kb, query, { topK: 10 })), retrieval).toStrictEqual([
          'a',
          'b',
          'n',
        ]);
        expect(await searchIds(kb, query, { userId: 'alice', topK: 10 }), retrieval).toStrictEqual([
          'a',
        ]);
        expect(await searchIds(kb, 'zebra', { userId: 'bob' }), retrieval).toStrictEqual([]);
        const both = { userId: 'alice', sessionId: 'alice-2' };
        expect(await searchIds(kb, 'zebra crossing', both), retrieval).toStrictEqual(['a-other']);
        expect(await searchIds(kb, query, both), retrieval).toStrictEqual([]);
        expect(await kb.delete(TEST_COLLECTION, { userId: 'alice' }), retrieval).toBe(2);
        expect(await searchIds(kb, query, { userId: 'alice' }), retrieval).toStrictEqual([]);
        expect(sorted(await searchIds(kb, query)), retrieval).toStrictEqual(['b', 'n']);
      }
    });
  });
}
