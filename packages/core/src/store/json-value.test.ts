import { describe, expect, it } from 'vitest';
import { MemError } from '../errors/mem-error.ts';
import { cloneJsonValue, copyJsonValue } from './json-value.ts';
import { MAX_JSON_DEPTH } from './store-limits.ts';

function fieldOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    expect(MemError.hasCode(error, 'MEM_VALIDATION')).toBe(true);
    return (error as { field?: string }).field;
  }
  return undefined;
}

describe('cloneJsonValue', () => {
  it('copies JSON data deeply and drops undefined properties as JSON does', () => {
    const input = { a: [1, { b: 'x' }], c: undefined, d: null, e: -0 };
    const copy = cloneJsonValue(input, 'value');
    expect(copy).toStrictEqual({ a: [1, { b: 'x' }], d: null, e: 0 });
    expect(copy.a).not.toBe(input.a);
    expect(Object.is(copy.e, 0)).toBe(true);
    expect(JSON.parse(JSON.stringify(input))).toStrictEqual(copy);
  });

  it('keeps an own __proto__ key as data without touching the prototype', () => {
    const input = JSON.parse('{"__proto__": {"polluted": true}, "x": 1}') as Record<
      string,
      unknown
    >;
    const copy = cloneJsonValue(input, 'metadata');
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toStrictEqual(['__proto__', 'x']);
    expect(JSON.stringify(copyJsonValue(copy))).toBe('{"__proto__":{"polluted":true},"x":1}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('accepts shared references but rejects cycles', () => {
    const shared = { v: 1 };
    expect(cloneJsonValue({ a: shared, b: [shared] }, 'm')).toStrictEqual({
      a: { v: 1 },
      b: [{ v: 1 }],
    });
    const cycle: Record<string, unknown> = {};
    cycle.next = { back: cycle };
    expect(fieldOf(() => cloneJsonValue(cycle, 'm'))).toBe('m.next.back');
  });

  it(`copies ${MAX_JSON_DEPTH} levels of nesting and rejects deeper data naming the path, never a RangeError`, () => {
    const nest = (levels: number, inner: (v: unknown) => unknown) => {
      let value: unknown = 'leaf';
      for (let i = 0; i < levels; i++) value = inner(value);
      return value;
    };
    // As in a message: the value itself is level 0, `metadata` level 1.
    const atLimit = nest(MAX_JSON_DEPTH, (v) => ({ a: v }));
    expect(cloneJsonValue({ metadata: atLimit }, 'm')).toStrictEqual({ metadata: atLimit });
    const deeper = { metadata: nest(MAX_JSON_DEPTH + 1, (v) => ({ a: v })) };
    expect(fieldOf(() => cloneJsonValue(deeper, 'm'))).toBe(
      `m.metadata${'.a'.repeat(MAX_JSON_DEPTH)}`,
    );
    const arrays = { x: nest(200_000, (v) => [v]) };
    expect(fieldOf(() => cloneJsonValue(arrays, 'm'))).toBe(`m.x${'[0]'.repeat(MAX_JSON_DEPTH)}`);
  });

  it('names the first path that JSON would change', () => {
    expect(fieldOf(() => cloneJsonValue({ when: new Date(0) }, 'messages[0].metadata'))).toBe(
      'messages[0].metadata.when',
    );
    expect(fieldOf(() => cloneJsonValue({ a: [1, undefined] }, 'x'))).toBe('x.a[1]');
    // biome-ignore lint/suspicious/noSparseArray: a sparse array is the point of this case
    expect(fieldOf(() => cloneJsonValue([1, , 3], 'x'))).toBe('x[1]');
    expect(fieldOf(() => cloneJsonValue({ n: Number.NaN }, 'x'))).toBe('x.n');
    expect(fieldOf(() => cloneJsonValue({ n: 1n }, 'x'))).toBe('x.n');
    expect(fieldOf(() => cloneJsonValue({ s: Symbol('s') }, 'x'))).toBe('x.s');
    expect(fieldOf(() => cloneJsonValue(new (class Point {})(), 'x'))).toBe('x');
  });
});
