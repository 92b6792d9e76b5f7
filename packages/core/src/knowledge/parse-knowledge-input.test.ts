import { describe, expect, it } from 'vitest';
import type { MemValidationError } from '../errors/errors.ts';
import { chunk } from './__fixtures__/knowledge-chunks.ts';
import {
  parseChunks,
  parseCountFilter,
  parseDeleteFilter,
  parseQuery,
  parseSearchOptions,
} from './parse-knowledge-input.ts';

/** The MemValidationError `call` throws. */
function thrown(call: () => unknown): MemValidationError {
  try {
    call();
  } catch (error) {
    return error as MemValidationError;
  }
  throw new Error('expected a MemValidationError');
}

// Every backend's behaviour on bad input is checked by the KnowledgeBase conformance suite
// (@mem/store-test-suite); here the shared parsers themselves.
describe('KnowledgeBase input parsers', () => {
  it('return fresh copies that drop unknown fields', () => {
    const input = { ...chunk('a', 'x', { messageIds: ['m1'], summaryId: 's' }), extra: 1 };
    const [parsed] = parseChunks([input]);
    expect(parsed).toEqual(chunk('a', 'x', { messageIds: ['m1'], summaryId: 's' }));
    expect(parsed?.metadata.messageIds).not.toBe(input.metadata.messageIds);
    const filter = { sessionId: 's1', messageIds: ['m'] };
    expect(parseDeleteFilter(filter).messageIds).not.toBe(filter.messageIds);
    expect(parseSearchOptions({ topK: 2, other: true })).toEqual({ topK: 2 });
    expect(parseCountFilter(undefined)).toEqual({});
  });

  it('name the bad path', () => {
    expect(
      thrown(() => parseChunks([chunk('y', 'ok'), { ...chunk('z', 'x'), tokenCount: -1 }])).field,
    ).toBe('chunks[1].tokenCount');
    expect(thrown(() => parseChunks([chunk('w', 'x', { sessionId: 'a\nb' })])).field).toBe(
      'chunks[0].metadata.sessionId',
    );
    expect(thrown(() => parseChunks('nope')).field).toBe('chunks');
    expect(thrown(() => parseSearchOptions({ topK: 0 })).field).toBe('options.topK');
    expect(thrown(() => parseDeleteFilter({ sessionId: '' })).field).toBe('filter.sessionId');
    expect(thrown(() => parseCountFilter({ sessionId: '' })).field).toBe('filter.sessionId');
    expect(thrown(() => parseQuery(42)).field).toBe('query');
  });

  it('check search options the same with or without the schema', () => {
    expect(parseSearchOptions({ topK: 3, sessionId: 's1' })).toEqual({ topK: 3, sessionId: 's1' });
    expect(parseSearchOptions({ topK: 3, sessionId: undefined })).toEqual({ topK: 3 });
    for (const topK of [1.5, Number.NaN, Number.POSITIVE_INFINITY, -1, '3', 2 ** 60]) {
      expect(thrown(() => parseSearchOptions({ topK })).field).toBe('options.topK');
    }
    expect(thrown(() => parseSearchOptions({ topK: 2, sessionId: 5 })).field).toBe(
      'options.sessionId',
    );
    expect(thrown(() => parseSearchOptions({ topK: 2, sessionId: '' })).field).toBe(
      'options.sessionId',
    );
    expect(thrown(() => parseSearchOptions([3])).field).toBe('options');
    expect(thrown(() => parseSearchOptions(null)).field).toBe('options');
  });

  it('check user ids in chunks, search options, count and delete filters, naming the field', () => {
    const [parsed] = parseChunks([chunk('a', 'x', { userId: 'u:ü 1' })]);
    expect(parsed?.metadata.userId).toBe('u:ü 1');
    expect(parseChunks([chunk('a', 'x')])[0]?.metadata).not.toHaveProperty('userId');
    expect(parseSearchOptions({ topK: 1, userId: 'u' })).toEqual({ topK: 1, userId: 'u' });
    expect(parseSearchOptions({ topK: 1, sessionId: 's', userId: 'u', x: 1 })).toEqual({
      topK: 1,
      sessionId: 's',
      userId: 'u',
    });
    expect(parseCountFilter({ userId: 'u' })).toEqual({ userId: 'u' });
    for (const bad of ['', 'a\ud800', 'a\nb', 42, null, 'x'.repeat(513)]) {
      expect(thrown(() => parseChunks([chunk('a', 'x', { userId: bad as string })])).field).toBe(
        'chunks[0].metadata.userId',
      );
      expect(thrown(() => parseSearchOptions({ topK: 1, userId: bad })).field).toBe(
        'options.userId',
      );
      expect(thrown(() => parseSearchOptions({ topK: '1', userId: bad })).field).toBe(
        'options.topK',
      );
      expect(thrown(() => parseCountFilter({ userId: bad })).field).toBe('filter.userId');
      expect(thrown(() => parseDeleteFilter({ userId: bad })).field).toBe('filter.userId');
      expect(thrown(() => parseDeleteFilter({ sessionId: 's', userId: bad })).field).toBe(
        'filter.userId',
      );
    }
  });

  it('take a delete filter by session (and user), or by user alone without id lists', () => {
    expect(parseDeleteFilter({ userId: 'u' })).toEqual({ userId: 'u' });
    expect(parseDeleteFilter({ userId: 'u', sessionId: undefined })).toEqual({ userId: 'u' });
    expect(parseDeleteFilter({ sessionId: 's', userId: 'u', messageIds: ['m'] })).toEqual({
      sessionId: 's',
      userId: 'u',
      messageIds: ['m'],
    });
    const neither = thrown(() => parseDeleteFilter({ messageIds: ['m'] }));
    expect(neither.field).toBe('filter.sessionId');
    expect(neither.message).toMatch(/filter\.userId/);
    const lists = thrown(() => parseDeleteFilter({ userId: 'u', summaryIds: [] }));
    expect(lists.field).toBe('filter.summaryIds');
    expect(lists.message).toMatch(/sessionId/);
    expect(thrown(() => parseDeleteFilter({ userId: 'u', messageIds: ['m'] })).field).toBe(
      'filter.messageIds',
    );
    expect(thrown(() => parseDeleteFilter({ userId: 'u', messageIds: [3] })).field).toBe(
      'filter.messageIds[0]',
    );
  });
});
