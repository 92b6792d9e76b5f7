/**
 * A value as conditions see it: CEL's `int` is a 64-bit integer, represented as a BigInt by
 * the CEL library; `double` is a JS number. Maps are `Map`s, so a key such as `__proto__` is
 * only ever a key.
 */
export type ConditionValue =
  | string
  | boolean
  | bigint
  | number
  | null
  | readonly ConditionValue[]
  | ReadonlyMap<string, ConditionValue>;

/** Deepest metadata nesting a condition can read (the metadata object itself is level 1). */
export const MAX_METADATA_DEPTH = 8;
/** Most values (map entries and list items, counted through every level) in one message's metadata. */
export const MAX_METADATA_VALUES = 1000;

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Metadata is too deep or too large to hand to a condition. */
export class MetadataLimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MetadataLimitError';
  }
}

/** A JS number as CEL sees it: an integral number is an `int` (BigInt), anything else a `double`. */
export function toConditionNumber(n: number): bigint | number {
  if (!Number.isInteger(n)) return n;
  const big = BigInt(n);
  return big >= INT64_MIN && big <= INT64_MAX ? big : n;
}

/** A count (tokens, messages, index) as a CEL `int`. */
export function toConditionInt(n: number): bigint {
  return Number.isFinite(n) ? BigInt(Math.trunc(n)) : 0n;
}

/**
 * Converts user metadata (normally parsed JSON) into condition values, without calling any of
 * its methods: plain objects and Maps become Maps of their own string keys, arrays become lists,
 * integral numbers become `int`, Dates ISO strings. Values JSON cannot hold (functions, symbols,
 * `undefined`, class instances) are left out, as JSON.stringify does (`null` inside a list).
 * Throws MetadataLimitError past MAX_METADATA_DEPTH or MAX_METADATA_VALUES.
 */
export function toConditionMap(
  record: Readonly<Record<string, unknown>> | undefined,
): ReadonlyMap<string, ConditionValue> {
  const budget = { left: MAX_METADATA_VALUES };
  if (record === undefined || record === null) return new Map();
  const converted = convert(record, 1, budget);
  return converted instanceof Map ? converted : new Map();
}

function convert(
  value: unknown,
  depth: number,
  budget: { left: number },
): ConditionValue | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return toConditionNumber(value);
    case 'bigint':
      return value >= INT64_MIN && value <= INT64_MAX ? value : Number(value);
    case 'object':
      break;
    default:
      return undefined;
  }
  if (value === null) return null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (depth > MAX_METADATA_DEPTH) {
    throw new MetadataLimitError(
      `message metadata is nested deeper than ${MAX_METADATA_DEPTH} levels`,
    );
  }
  if (Array.isArray(value)) {
    const out: ConditionValue[] = [];
    for (const item of value) {
      spend(budget);
      out.push(convert(item, depth + 1, budget) ?? null);
    }
    return out;
  }
  const entries = entriesOf(value);
  if (entries === undefined) return undefined;
  const out = new Map<string, ConditionValue>();
  for (const [key, item] of entries) {
    spend(budget);
    const converted = convert(item, depth + 1, budget);
    if (converted !== undefined) out.set(key, converted);
  }
  return out;
}

/** Own string-keyed entries of a Map or plain object; undefined for any other object. */
function entriesOf(value: object): Iterable<readonly [string, unknown]> | undefined {
  if (value instanceof Map) {
    const out: [string, unknown][] = [];
    for (const [key, item] of value) if (typeof key === 'string') out.push([key, item]);
    return out;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return undefined;
  // Object.keys + index read: own enumerable data keys only; an own `__proto__` key (as
  // JSON.parse creates) reads its own value and never the prototype.
  const record = value as Record<string, unknown>;
  return Object.keys(record).map((key) => [
    key,
    Object.getOwnPropertyDescriptor(record, key)?.value,
  ]);
}

/**
 * Size of a condition value for cost estimates: 1 per value plus the length of every string
 * (map keys included), through every level.
 */
export function conditionValueSize(value: ConditionValue): number {
  if (typeof value === 'string') return 1 + value.length;
  if (value instanceof Map) {
    let size = 1;
    for (const [key, item] of value) size += key.length + conditionValueSize(item);
    return size;
  }
  if (Array.isArray(value)) {
    let size = 1;
    for (const item of value as readonly ConditionValue[]) size += conditionValueSize(item);
    return size;
  }
  return 1;
}

function spend(budget: { left: number }): void {
  if (--budget.left < 0) {
    throw new MetadataLimitError(`message metadata holds more than ${MAX_METADATA_VALUES} values`);
  }
}
