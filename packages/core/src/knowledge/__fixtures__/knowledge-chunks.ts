import { expect } from 'vitest';
import { MemError } from '../../errors/mem-error.ts';
import type { KnowledgeChunk } from '../knowledge-base-spec.ts';

/** A chunk of session `s1` (override anything through `metadata`). */
export function chunk(
  id: string,
  text: string,
  metadata: Partial<KnowledgeChunk['metadata']> = {},
): KnowledgeChunk {
  return {
    id,
    text,
    tokenCount: text.split(' ').length,
    metadata: { sessionId: 's1', kind: 'summary', messageIds: [], createdAt: 1, ...metadata },
  };
}

/** The MemError a promise rejects with (fails the test if it resolves or throws something else). */
export async function rejection(promise: Promise<unknown>): Promise<MemError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(MemError.isInstance(error), String(error)).toBe(true);
  return error as MemError;
}
