import { describe, expect, it } from 'vitest';
import type { MemValidationError } from '../errors/errors.ts';
import { chunk, rejection } from './__fixtures__/knowledge-chunks.ts';
import { createMemoryKnowledgeBase } from './memory-knowledge-base.ts';
import { assertValidCollectionId } from './validate-collection-id.ts';

describe('assertValidCollectionId', () => {
  it('accepts 1-128 letters, digits, _ - . :', () => {
    for (const id of ['session-memory', 'kb:support_v2.1-x', 'a', 'x'.repeat(128)]) {
      expect(() => assertValidCollectionId(id)).not.toThrow();
    }
  });

  it('rejects other values, naming the field', () => {
    for (const id of [undefined, null, 42, '', ' a', 'a\u0000b', 'DROP TABLE x;', '%', '?']) {
      let error: unknown;
      try {
        assertValidCollectionId(id);
      } catch (e) {
        error = e;
      }
      expect((error as MemValidationError).field).toBe('collectionId');
    }
  });
});

describe('collection ids at the KnowledgeBase boundary', () => {
  it.each(['../x', 'a b', '*', '', 'x'.repeat(129), '..', 'a/b', 'é'])(
    'rejects the collection id %j with MemValidationError naming collectionId',
    async (collectionId) => {
      const kb = createMemoryKnowledgeBase();
      for (const call of [
        kb.add(collectionId, []),
        kb.search(collectionId, 'q', { topK: 1 }),
        kb.delete(collectionId, { sessionId: 's1' }),
        kb.count(collectionId),
      ]) {
        const error = (await rejection(call)) as MemValidationError;
        expect(error.code).toBe('MEM_VALIDATION');
        expect(error.field).toBe('collectionId');
      }
    },
  );

  it('accepts collection ids with letters, digits, _ - . :', async () => {
    const kb = createMemoryKnowledgeBase();
    await kb.add('kb:support_v2.1-x', [chunk('a', 'hello world')]);
    expect(await kb.count('kb:support_v2.1-x')).toBe(1);
  });
});
