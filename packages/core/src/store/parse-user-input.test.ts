import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemError } from '../errors/mem-error.ts';
import { readAppendOptions } from './encode-message-batch.ts';
import { parseSessionSnapshot } from './parse-session-snapshot.ts';
import { parseAppendOptions, parseListOptions, parseUserFactsWrite } from './parse-store-input.ts';
import type { UserFact } from './store-spec.ts';

function outcome(parse: () => unknown): unknown {
  try {
    return { ok: parse() };
  } catch (error) {
    expect(MemError.hasCode(error, 'MEM_VALIDATION'), String(error)).toBe(true);
    return { field: (error as { field: string }).field };
  }
}

const fact = (fields: Partial<UserFact> = {}): UserFact => ({
  id: 'f1',
  text: 'Lives in Lisbon',
  sourceMessageIds: ['m1'],
  createdAt: 1,
  updatedAt: 2,
  ...fields,
});

const anyValue = fc.oneof(
  fc.constant(undefined),
  fc.constantFrom(null, 3, '', 'k', 'user 1', 'a\ud800', 'line\nbreak', 'x'.repeat(513)),
  fc.string({ unit: 'binary', maxLength: 8 }),
);

describe('append options with a user', () => {
  it('readAppendOptions (the quick path) accepts and refuses exactly what parseAppendOptions does', () => {
    fc.assert(
      fc.property(
        fc.record(
          { idempotencyKey: anyValue, userId: anyValue, other: anyValue },
          { requiredKeys: [] },
        ),
        (options) => {
          expect(outcome(() => readAppendOptions(options))).toStrictEqual(
            outcome(() => parseAppendOptions(options)),
          );
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('names the field userId and keeps no undefined userId', () => {
    expect(outcome(() => parseAppendOptions({ idempotencyKey: 'k', userId: '' }))).toStrictEqual({
      field: 'userId',
    });
    expect(parseAppendOptions({ idempotencyKey: 'k', userId: undefined })).toStrictEqual({
      idempotencyKey: 'k',
    });
    expect(readAppendOptions({ idempotencyKey: 'k', userId: 'u' })).toStrictEqual({
      idempotencyKey: 'k',
      userId: 'u',
    });
  });

  it('list options take a userId under the same rules', () => {
    expect(parseListOptions({ userId: 'u', limit: 2 })).toStrictEqual({ userId: 'u', limit: 2 });
    expect(outcome(() => parseListOptions({ userId: 'a\u0000' }))).toStrictEqual({
      field: 'userId',
    });
  });
});

describe('parseUserFactsWrite', () => {
  it('returns a copy without undefined properties, facts in the given order', () => {
    const facts = [{ ...fact({ id: 'b' }), about: undefined }, fact({ id: 'a', sessionId: 's' })];
    const parsed = parseUserFactsWrite({ expectedVersion: 3, facts });
    expect(parsed).toStrictEqual({
      expectedVersion: 3,
      facts: [fact({ id: 'b' }), fact({ id: 'a', sessionId: 's' })],
    });
    facts[1]!.sourceMessageIds.push('changed');
    expect(parsed.facts[1]!.sourceMessageIds).toStrictEqual(['m1']);
  });

  it('names the path of the first bad value', () => {
    const cases: Array<[input: unknown, field: string]> = [
      [{ expectedVersion: 0, facts: [fact(), fact()] }, 'facts[1].id'],
      [{ expectedVersion: 0, facts: [fact({ text: '  ' })] }, 'facts[0].text'],
      [{ expectedVersion: 0, facts: [fact({ about: 'x'.repeat(129) })] }, 'facts[0].about'],
      [{ expectedVersion: 0, facts: [fact({ sessionId: '\u007f' })] }, 'facts[0].sessionId'],
      [
        { expectedVersion: 0, facts: [fact({ sourceMessageIds: ['a', ''] })] },
        'facts[0].sourceMessageIds[1]',
      ],
      [{ expectedVersion: 0, facts: [fact({ createdAt: Number.NaN })] }, 'facts[0].createdAt'],
      [{ expectedVersion: 2 ** 53, facts: [] }, 'expectedVersion'],
      [
        { expectedVersion: 0, facts: Array.from({ length: 501 }, (_, i) => fact({ id: `${i}` })) },
        'facts',
      ],
    ];
    for (const [input, field] of cases) {
      expect(
        outcome(() => parseUserFactsWrite(input)),
        field,
      ).toStrictEqual({ field });
    }
  });
});

describe('snapshots with a user', () => {
  const snapshot = (info: object) => ({
    format: 'mem.session.v1',
    sessionId: 's',
    info: {
      id: 's',
      version: 1,
      epoch: 0,
      lastSeq: 0,
      messageCount: 0,
      tokenCount: 0,
      createdAt: 0,
      updatedAt: 0,
      ...info,
    },
    messages: [],
    archived: [],
    summaries: [],
    idempotencyKeys: [],
  });

  it('accepts a snapshot with or without info.userId', () => {
    expect(parseSessionSnapshot(snapshot({ userId: 'u' })).info.userId).toBe('u');
    expect(parseSessionSnapshot(snapshot({})).info).not.toHaveProperty('userId');
  });

  it('refuses an invalid info.userId, naming it', () => {
    expect(outcome(() => parseSessionSnapshot(snapshot({ userId: 'a\nb' })))).toStrictEqual({
      field: 'snapshot.info.userId',
    });
  });
});
