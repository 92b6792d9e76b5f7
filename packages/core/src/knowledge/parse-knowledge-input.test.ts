import { describe, expect, it } from 'vitest';
import type { MemValidationError } from '../errors/errors.ts';
import { chunk, rejection } from './__fixtures__/knowledge-chunks.ts';
import { createMemoryKnowledgeBase } from './memory-knowledge-base.ts';

const COLLECTION = 'c';

describe('KnowledgeBase input checks', () => {
  it('rejects bad chunks and options, naming the path, and changes nothing', async () => {
    const kb = createMemoryKnowledgeBase();
    await kb.add(COLLECTION, [chunk('a', 'Invoice 1'), chunk('b', 'Refund 2')]);
    const bad = { ...chunk('z', 'Invoice'), tokenCount: -1 };
    const error = (await rejection(
      kb.add(COLLECTION, [chunk('y', 'ok'), bad]),
    )) as MemValidationError;
    expect(error.field).toBe('chunks[1].tokenCount');
    expect(await kb.count(COLLECTION)).toBe(2);
    const badSession = chunk('w', 'x', { sessionId: 'a\nb' });
    expect(((await rejection(kb.add(COLLECTION, [badSession]))) as MemValidationError).field).toBe(
      'chunks[0].metadata.sessionId',
    );
    const topK = (await rejection(kb.search(COLLECTION, 'x', { topK: 0 }))) as MemValidationError;
    expect(topK.field).toBe('options.topK');
    const filter = (await rejection(
      kb.delete(COLLECTION, { sessionId: '' }),
    )) as MemValidationError;
    expect(filter.field).toBe('filter.sessionId');
  });

  it('rejects a non-string query and a bad count filter', async () => {
    const kb = createMemoryKnowledgeBase();
    const query = (await rejection(
      kb.search(COLLECTION, 42 as unknown as string, { topK: 1 }),
    )) as MemValidationError;
    expect(query.field).toBe('query');
    const count = (await rejection(kb.count(COLLECTION, { sessionId: '' }))) as MemValidationError;
    expect(count.field).toBe('filter.sessionId');
    const chunks = (await rejection(
      kb.add(COLLECTION, 'nope' as unknown as []),
    )) as MemValidationError;
    expect(chunks.field).toBe('chunks');
  });
});
