import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseReadOptions } from './parse-store-input.ts';
import { readOptionsSchema } from './store-schemas.ts';

/** What the schema alone makes of the options: the parsed value without undefined, or a throw. */
function bySchema(options: unknown): object | 'invalid' {
  const parsed = readOptionsSchema.safeParse(options ?? {});
  if (!parsed.success) return 'invalid';
  return Object.fromEntries(Object.entries(parsed.data).filter(([, v]) => v !== undefined));
}

function byParser(options: unknown): object | 'invalid' {
  try {
    return parseReadOptions(options);
  } catch (error) {
    expect(error).toMatchObject({ code: 'MEM_VALIDATION' });
    return 'invalid';
  }
}

const value = fc.oneof(
  fc.constant(undefined),
  fc.nat(),
  fc.integer(),
  fc.double(),
  fc.constantFrom(2 ** 53, -0, Number.NaN, Number.POSITIVE_INFINITY, 'start', 'end', '3', null),
  fc.string(),
);

describe('parseReadOptions: the quick check agrees with the schema', () => {
  it('on random options, valid or not', () => {
    fc.assert(
      fc.property(
        fc.record(
          { afterSeq: value, beforeSeq: value, limit: value, from: value, other: value },
          { requiredKeys: [] },
        ),
        (options) => {
          expect(byParser(options)).toEqual(bySchema(options));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('on values that are not option objects', () => {
    for (const options of [undefined, null, 3, 'x', [], [1], true]) {
      expect(byParser(options)).toEqual(bySchema(options));
    }
  });
});
