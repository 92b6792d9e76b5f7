import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemValidationError } from '../errors/errors.ts';
import { encodeMessageBatch, readIdempotencyKey } from './encode-message-batch.ts';
import { parseCountedMessages } from './parse-store-input.ts';

const text = fc.string({ unit: 'binary', maxLength: 40 });
/** Plain messages (the fast path) and odd ones (core's parser), mixed. */
const message = fc.record(
  {
    id: fc.oneof(
      fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }),
      fc.constantFrom('\ud800', 'a\udc00'),
    ),
    role: fc.constantFrom('system', 'user', 'assistant', 'tool'),
    content: fc.oneof(text, fc.array(text.map((t) => ({ type: 'text' as const, text: t })))),
    toolCalls: fc.array(
      fc.record({
        id: fc.string({ minLength: 1 }),
        name: fc.string({ minLength: 1 }),
        arguments: text,
      }),
      { maxLength: 2 },
    ),
    toolCallId: fc.string({ minLength: 1, maxLength: 8 }),
    toolName: text,
    isError: fc.boolean(),
    name: text,
    createdAt: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })),
    tokenCount: fc.oneof(fc.nat(), fc.constantFrom(-1, 1.5, 100_000_000, 100_000_001)),
    metadata: fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 1 }), {
      maxKeys: 2,
    }),
  },
  { requiredKeys: ['id', 'role', 'content', 'createdAt', 'tokenCount'] },
);

function viaParser(batch: unknown): { id: string; tokenCount: number; json: string }[] | string {
  try {
    return parseCountedMessages(batch).map((m) => ({
      id: m.id,
      tokenCount: m.tokenCount,
      json: JSON.stringify(m),
    }));
  } catch (error) {
    return (error as Error).message;
  }
}

function viaEncoder(batch: unknown): ReturnType<typeof viaParser> {
  try {
    return encodeMessageBatch(batch);
  } catch (error) {
    return (error as Error).message;
  }
}

describe('encodeMessageBatch', () => {
  it('gives exactly what parseCountedMessages + JSON.stringify give, errors included', () => {
    fc.assert(
      fc.property(fc.array(message, { maxLength: 5 }), (batch) => {
        expect(viaEncoder(batch)).toEqual(viaParser(batch));
      }),
      { numRuns: 2_000 },
    );
  });

  it('rejects what the parser rejects, naming the field', () => {
    expect(() =>
      encodeMessageBatch([{ id: '', role: 'user', content: 'x', createdAt: 1, tokenCount: 1 }]),
    ).toThrow(MemValidationError);
    expect(() => encodeMessageBatch('nope')).toThrow(MemValidationError);
  });
});

describe('readIdempotencyKey', () => {
  it('accepts 1-512 character keys and rejects anything else like parseIdempotencyKey', () => {
    expect(readIdempotencyKey({ idempotencyKey: 'turn-1' })).toBe('turn-1');
    for (const bad of [
      undefined,
      null,
      {},
      { idempotencyKey: '' },
      { idempotencyKey: 'x'.repeat(513) },
      { idempotencyKey: 7 },
    ]) {
      expect(() => readIdempotencyKey(bad)).toThrow(MemValidationError);
    }
  });
});
