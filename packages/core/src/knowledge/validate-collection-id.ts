import { MemValidationError } from '../errors/errors.ts';

/** Longest accepted collection id. */
export const MAX_COLLECTION_ID_LENGTH = 128;

const COLLECTION_ID = /^[A-Za-z0-9_.:-]{1,128}$/;

/**
 * Collection ids name a collection of a knowledge base: 1-128 ASCII letters, digits, `_`, `-`,
 * `.` or `:` (`session-memory`, `kb:support.v2`), and not `.` or `..`. Backends still bind them
 * as parameters; the check keeps them safe to show and to use in names (a table prefix, a file).
 */
export function assertValidCollectionId(
  collectionId: unknown,
  field = 'collectionId',
): asserts collectionId is string {
  if (
    typeof collectionId !== 'string' ||
    !COLLECTION_ID.test(collectionId) ||
    collectionId === '.' ||
    collectionId === '..'
  ) {
    const shown =
      typeof collectionId === 'string'
        ? JSON.stringify(
            collectionId.length > 64 ? `${collectionId.slice(0, 64)}...` : collectionId,
          )
        : `(a ${collectionId === null ? 'null' : typeof collectionId})`;
    throw new MemValidationError(
      field,
      `[mem/knowledge] invalid ${field} ${shown}: use 1-${MAX_COLLECTION_ID_LENGTH} letters, digits, "_", "-", "." or ":", e.g. "session-memory".`,
    );
  }
}
