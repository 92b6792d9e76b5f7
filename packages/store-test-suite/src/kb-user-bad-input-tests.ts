import type { KnowledgeBase, KnowledgeDeleteFilter } from '@mem/core/backend';
import { describe, expect, it } from 'vitest';
import { INVALID_SESSION_IDS } from './bad-input-tests.ts';
import { expectMemError } from './fixtures.ts';
import { TEST_COLLECTION } from './kb-fixtures.ts';
import { useKnowledgeBases } from './kb-harness.ts';
import type { KnowledgeBaseFactory, KnowledgeBaseSuiteOptions } from './kb-suite-options.ts';
import { USER_CORPUS, userChunk } from './kb-user-tests.ts';

/** User ids every knowledge base must refuse (the session id rules). */
const INVALID_USER_IDS = INVALID_SESSION_IDS.filter(([, id]) => id !== undefined);

/** Counts of the whole collection, of each user and of the chunks without a user. */
async function census(kb: KnowledgeBase): Promise<number[]> {
  return Promise.all([
    kb.count(TEST_COLLECTION),
    kb.count(TEST_COLLECTION, { userId: 'alice' }),
    kb.count(TEST_COLLECTION, { userId: 'bob' }),
    kb.count(TEST_COLLECTION, { sessionId: 'anon-1' }),
  ]);
}

/** Bad user ids and user filters: a `MemValidationError` naming the field, nothing deleted. */
export function knowledgeBaseUserBadInputTests(
  createKnowledgeBase: KnowledgeBaseFactory,
  options: KnowledgeBaseSuiteOptions = {},
): void {
  describe('knowledge base users, bad input', () => {
    const bases = useKnowledgeBases(createKnowledgeBase, options);
    const seeded = async (): Promise<KnowledgeBase> => {
      const kb = await bases.open();
      await kb.add(TEST_COLLECTION, USER_CORPUS);
      expect(await census(kb)).toStrictEqual([USER_CORPUS.length, 3, 2, 1]);
      return kb;
    };

    it('refuses a delete filter with neither sessionId nor userId, saying what to pass', async () => {
      const kb = await seeded();
      for (const filter of [
        {},
        { messageIds: ['m1'] },
        { summaryIds: [] },
        { userId: undefined },
      ]) {
        const error = await expectMemError(
          kb.delete(TEST_COLLECTION, filter as KnowledgeDeleteFilter),
          'MEM_VALIDATION',
          'filter.sessionId',
        );
        expect(error.message).toMatch(/userId/);
      }
      for (const filter of [null, undefined, 'alice', ['alice']]) {
        await expectMemError(
          kb.delete(TEST_COLLECTION, filter as unknown as KnowledgeDeleteFilter),
          'MEM_VALIDATION',
        );
      }
      expect(await census(kb)).toStrictEqual([USER_CORPUS.length, 3, 2, 1]);
    });

    it('refuses message or summary ids with userId alone, naming the list, deleting nothing', async () => {
      const kb = await seeded();
      const cases: [field: string, filter: unknown][] = [
        ['filter.messageIds', { userId: 'alice', messageIds: ['m1'] }],
        ['filter.messageIds', { userId: 'alice', messageIds: [] }],
        ['filter.summaryIds', { userId: 'alice', summaryIds: ['sum1'] }],
      ];
      for (const [field, filter] of cases) {
        const error = await expectMemError(
          kb.delete(TEST_COLLECTION, filter as KnowledgeDeleteFilter),
          'MEM_VALIDATION',
          field,
        );
        expect(error.message).toMatch(/sessionId/);
      }
      expect(await census(kb)).toStrictEqual([USER_CORPUS.length, 3, 2, 1]);
    });

    it.each(INVALID_USER_IDS)(
      'refuses a user id (%s) in chunks, search, count and delete, changing nothing',
      async (_label, userId) => {
        const kb = await seeded();
        const bad = userChunk('bad', 'pineapple', 'alice-1', userId as string);
        await expectMemError(
          kb.add(TEST_COLLECTION, [userChunk('ok', 'mango', 'alice-1', 'alice'), bad]),
          'MEM_VALIDATION',
          'chunks[1].metadata.userId',
        );
        const uid = userId as string;
        await expectMemError(
          kb.search(TEST_COLLECTION, 'greyhound', { topK: 1, userId: uid }),
          'MEM_VALIDATION',
          'options.userId',
        );
        await expectMemError(
          kb.search(TEST_COLLECTION, 'greyhound', { topK: 1, sessionId: 'alice-1', userId: uid }),
          'MEM_VALIDATION',
          'options.userId',
        );
        await expectMemError(
          kb.count(TEST_COLLECTION, { userId: uid }),
          'MEM_VALIDATION',
          'filter.userId',
        );
        for (const filter of [{ userId: uid }, { sessionId: 'alice-1', userId: uid }]) {
          await expectMemError(
            kb.delete(TEST_COLLECTION, filter),
            'MEM_VALIDATION',
            'filter.userId',
          );
        }
        expect(await census(kb)).toStrictEqual([USER_CORPUS.length, 3, 2, 1]);
        const fruit = await kb.search(TEST_COLLECTION, 'mango pineapple', { topK: 5 });
        expect(fruit).toStrictEqual([]);
      },
    );

    it('refuses a bad session id next to a good user id, naming sessionId', async () => {
      const kb = await seeded();
      await expectMemError(
        kb.delete(TEST_COLLECTION, { sessionId: 'a\u0000b', userId: 'alice' }),
        'MEM_VALIDATION',
        'filter.sessionId',
      );
      await expectMemError(
        kb.delete(TEST_COLLECTION, { sessionId: 42 as unknown as string, userId: 'alice' }),
        'MEM_VALIDATION',
        'filter.sessionId',
      );
      expect(await census(kb)).toStrictEqual([USER_CORPUS.length, 3, 2, 1]);
    });
  });
}
