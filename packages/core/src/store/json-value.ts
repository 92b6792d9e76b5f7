import { MemValidationError } from '../errors/errors.ts';
import { MAX_JSON_DEPTH } from './store-limits.ts';

/**
 * Deep-copies a value that must survive a JSON round trip unchanged, and rejects anything that
 * would not: `undefined` in arrays, non-finite numbers, bigints, functions, symbols, class
 * instances (Date, Map, ...), sparse arrays, cycles, and objects or arrays nested more than
 * `MAX_JSON_DEPTH` levels below a message (`value` is at `level`, default 0: metadata alone is
 * level 1, as inside its message). `undefined` object properties are
 * dropped, as `JSON.stringify` drops them. Own `__proto__` keys are kept as data.
 *
 * Stores use it so that what the in-memory store returns is exactly what a durable store (which
 * writes JSON) would return, and so that stored data never aliases caller objects.
 *
 * @throws MemValidationError naming the first bad path, e.g. `messages[0].metadata.when`.
 */
export function cloneJsonValue<T>(value: T, path: string, level = 0): T {
  return cloneAt(value, path, new Set(), level) as T;
}

/** Deep-copies data that is already known to be JSON-safe (read results). */
export function copyJsonValue<T>(value: T): T {
  return copyTrusted(value) as T;
}

function cloneAt(value: unknown, path: string, seen: Set<object>, depth: number): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      if (!Number.isFinite(value)) throw bad(path, `${value} is not a finite number`);
      return Object.is(value, -0) ? 0 : value;
    case 'object':
      break;
    default:
      throw bad(path, `a ${typeof value} cannot be stored`);
  }
  if (value === null) return null;
  if (seen.has(value)) throw bad(path, 'it refers to itself (a cycle)');
  if (depth > MAX_JSON_DEPTH) {
    throw bad(
      path,
      `objects and arrays nest more than ${MAX_JSON_DEPTH} levels deep here; flatten the data (e.g. store deep structures as a JSON string)`,
    );
  }
  seen.add(value);
  try {
    if (Array.isArray(value)) {
      const out: unknown[] = new Array(value.length);
      for (let i = 0; i < value.length; i++) {
        if (!(i in value) || value[i] === undefined) throw bad(`${path}[${i}]`, 'it is empty');
        out[i] = cloneAt(value[i], `${path}[${i}]`, seen, depth + 1);
      }
      return out;
    }
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) {
      const kind = (proto as { constructor?: { name?: string } }).constructor?.name ?? 'object';
      throw bad(path, `a ${kind} instance is not plain JSON; convert it (e.g. a Date to a number)`);
    }
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const item = (value as Record<string, unknown>)[key];
      if (item === undefined) continue;
      setOwn(out, key, cloneAt(item, `${path}.${key}`, seen, depth + 1));
    }
    return out;
  } finally {
    seen.delete(value);
  }
}

function copyTrusted(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(copyTrusted);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    setOwn(out, key, copyTrusted((value as Record<string, unknown>)[key]));
  }
  return out;
}

function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  } else {
    target[key] = value;
  }
}

function bad(path: string, why: string): MemValidationError {
  return new MemValidationError(path, `[mem/store] ${path} cannot be stored: ${why}.`);
}
