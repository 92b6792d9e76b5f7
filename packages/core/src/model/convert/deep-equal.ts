/**
 * Structural equality of wire values: plain objects, arrays, binary data (`Uint8Array`,
 * `ArrayBuffer`, Buffer: same class and bytes) and `URL`s (same href). A key holding `undefined`
 * counts as absent, as it does once the value is serialized.
 */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (isPlainObject(a) && isPlainObject(b)) return sameEntries(a, b);
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  if (a instanceof URL) return a.href === (b as URL).href;
  if (a instanceof ArrayBuffer)
    return sameBytes(new Uint8Array(a), new Uint8Array(b as ArrayBuffer));
  if (ArrayBuffer.isView(a)) return ArrayBuffer.isView(b) && sameBytes(bytesOf(a), bytesOf(b));
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((item, i) => deepEqual(item, other[i]));
  }
  return sameEntries(a, b);
}

/** An object literal (or a null-prototype one, as some parsers make). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function sameEntries(a: object, b: object): boolean {
  const left = definedKeys(a);
  const right = definedKeys(b);
  if (left.length !== right.length) return false;
  const rb = b as Record<string, unknown>;
  const ra = a as Record<string, unknown>;
  return left.every((key) => Object.hasOwn(rb, key) && deepEqual(ra[key], rb[key]));
}

function definedKeys(value: object): string[] {
  return Object.entries(value)
    .filter(([, v]) => v !== undefined)
    .map(([k]) => k);
}

function bytesOf(view: ArrayBufferView): Uint8Array {
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
