import { describe, expect, it } from 'vitest';
import type { MemValidationError } from '../errors/errors.ts';
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
