import type { ContentPart, WireFormat } from '../message.ts';
import { deepEqual, isPlainObject } from './deep-equal.ts';

/** A wire object read as a bag of fields. */
export type WireRecord = Record<string, unknown>;

export function isRecord(value: unknown): value is WireRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/*
 * Wire objects come from JSON.parse, where a key named "__proto__" is an own data property like
 * any other. Fields are read and written as own properties only, so such a key is carried as
 * data: `obj[key] = value` would set the object's prototype instead, and `obj[key]` of an absent
 * "__proto__" would read Object.prototype.
 */

/** The own field `key` of `value`, or undefined (never an inherited one). */
export function ownField(value: WireRecord, key: string): unknown {
  return Object.hasOwn(value, key) ? value[key] : undefined;
}

/** Sets `key` as an own data property, whatever its name. */
export function setField(target: WireRecord, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/**
 * How a wire object differs from the one rebuilt from its mem message: fields to set verbatim
 * and fields to leave out. Stored in metadata, re-applied when converting back.
 */
export interface WireResidue {
  set?: WireRecord;
  omit?: string[];
}

/** The residue turning `rebuilt` back into `original` (top-level fields), or undefined if equal. */
export function fieldResidue(original: WireRecord, rebuilt: WireRecord): WireResidue | undefined {
  const set: WireRecord = {};
  const omit: string[] = [];
  for (const [key, value] of Object.entries(original)) {
    if (value !== undefined && !deepEqual(value, ownField(rebuilt, key))) setField(set, key, value);
  }
  for (const [key, value] of Object.entries(rebuilt)) {
    if (value !== undefined && ownField(original, key) === undefined) omit.push(key);
  }
  const residue: WireResidue = {};
  if (Object.keys(set).length > 0) residue.set = set;
  if (omit.length > 0) residue.omit = omit;
  return residue.set === undefined && residue.omit === undefined ? undefined : residue;
}

/** Applies a residue read from metadata (ignored unless well-formed) to a rebuilt wire object. */
export function applyResidue(rebuilt: WireRecord, residue: unknown): WireRecord {
  if (!isRecord(residue)) return rebuilt;
  const out: WireRecord = { ...rebuilt };
  if (Array.isArray(residue.omit)) {
    for (const key of residue.omit) if (typeof key === 'string') delete out[key];
  }
  if (isRecord(residue.set)) {
    for (const [key, value] of Object.entries(residue.set)) setField(out, key, value);
  }
  return out;
}

/** The fields of `value` outside `known`, or undefined when there are none. */
export function extraFields(value: WireRecord, known: readonly string[]): WireRecord | undefined {
  const extra: WireRecord = {};
  for (const [key, v] of Object.entries(value)) {
    if (v !== undefined && !known.includes(key)) setField(extra, key, v);
  }
  return Object.keys(extra).length > 0 ? extra : undefined;
}

/**
 * The fields `original` has beyond `rebuilt`, nested objects compared key by key. Undefined
 * when `rebuilt` disagrees with `original` on a field it has (then the mapping is not
 * faithful); `{}` when nothing is extra.
 */
function extraBeyond(original: WireRecord, rebuilt: WireRecord): WireRecord | undefined {
  const extra: WireRecord = {};
  for (const [key, value] of Object.entries(rebuilt)) {
    if (value !== undefined && ownField(original, key) === undefined) return undefined;
  }
  for (const [key, value] of Object.entries(original)) {
    if (value === undefined) continue;
    const mine = ownField(rebuilt, key);
    if (mine === undefined) setField(extra, key, value);
    else if (isPlainObject(value) && isPlainObject(mine)) {
      const nested = extraBeyond(value, mine);
      if (nested === undefined) return undefined;
      if (Object.keys(nested).length > 0) setField(extra, key, nested);
    } else if (!deepEqual(value, mine)) return undefined;
  }
  return extra;
}

/** Merges extra fields (as found by a faithful-part split) back into a rebuilt wire object. */
export function mergeExtra(rebuilt: WireRecord, extra: unknown): WireRecord {
  if (!isRecord(extra)) return rebuilt;
  const out: WireRecord = { ...rebuilt };
  for (const [key, value] of Object.entries(extra)) {
    const mine = ownField(out, key);
    setField(
      out,
      key,
      isPlainObject(mine) && isPlainObject(value) ? mergeExtra(mine, value) : value,
    );
  }
  return out;
}

/** A wire content part as mem holds it: typed when the mapping is faithful, else verbatim. */
export interface FaithfulPart {
  part: ContentPart;
  /** Fields of the wire part the typed part has no slot for (`cache_control`, `providerOptions`). */
  extra?: WireRecord;
}

/**
 * Maps a wire part to a typed mem part only when mapping it back gives the same part again
 * (plus extra fields kept aside); anything else becomes a verbatim `ProviderPart`.
 */
export function faithfulPart(
  format: WireFormat,
  wire: WireRecord,
  toMem: (wire: WireRecord) => ContentPart | undefined,
  toWire: (part: ContentPart) => WireRecord | undefined,
): FaithfulPart {
  const part = toMem(wire);
  if (part !== undefined) {
    let rebuilt: WireRecord | undefined;
    try {
      rebuilt = toWire(part);
    } catch {
      rebuilt = undefined;
    }
    const extra = rebuilt === undefined ? undefined : extraBeyond(wire, rebuilt);
    if (
      rebuilt !== undefined &&
      extra !== undefined &&
      deepEqual(mergeExtra(rebuilt, extra), wire)
    ) {
      return Object.keys(extra).length > 0 ? { part, extra } : { part };
    }
  }
  return { part: { type: 'provider', format, value: wire } };
}

/** Reads a `Record<index, WireRecord>` metadata entry; undefined entries when malformed. */
export function indexedExtras(value: unknown): (index: number) => WireRecord | undefined {
  return (index) => {
    if (!isRecord(value)) return undefined;
    const entry = value[String(index)];
    return isRecord(entry) ? entry : undefined;
  };
}
