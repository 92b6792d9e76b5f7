import { MemValidationError } from '@mem/core';

/**
 * Deepest nesting below an item: a stored message allows 64 levels of objects and arrays, of
 * which its metadata and the item's key under it take two.
 */
export const MAX_ITEM_DEPTH = 62;

/**
 * A fresh copy of `value` made of plain JSON data only (what a store writes and reads back
 * exactly), or a MemValidationError naming the first path that is not: a function, symbol,
 * bigint, non-finite number, class instance (Date, Map, Uint8Array, ...), an empty or
 * `undefined` array slot, a cycle, or nesting past `MAX_ITEM_DEPTH`. Object properties that are
 * `undefined` are dropped, as `JSON.stringify` drops them; own `__proto__` keys are kept as data.
 */
export function plainJsonCopy(value: unknown, path: string): unknown {
  return copyAt(value, path, new Set(), 0);
}

function copyAt(value: unknown, path: string, seen: Set<object>, depth: number): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      if (!Number.isFinite(value)) throw notJson(path, `${value} is not a finite number`);
      return value;
    case 'object':
      break;
    default:
      throw notJson(path, `a ${typeof value} is not JSON data`);
  }
  if (value === null) return null;
  if (seen.has(value)) throw notJson(path, 'it refers to itself (a cycle)');
  if (depth > MAX_ITEM_DEPTH) {
    throw notJson(path, `objects and arrays nest more than ${MAX_ITEM_DEPTH} levels deep here`);
  }
  seen.add(value);
  try {
    if (Array.isArray(value)) {
      const out: unknown[] = [];
      for (let i = 0; i < value.length; i++) {
        if (!(i in value) || value[i] === undefined) throw notJson(`${path}[${i}]`, 'it is empty');
        out.push(copyAt(value[i], `${path}[${i}]`, seen, depth + 1));
      }
      return out;
    }
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) {
      const kind = (proto as { constructor?: { name?: string } }).constructor?.name || 'object';
      throw notJson(path, `a ${kind} is not plain JSON (send binary data as base64 text)`);
    }
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const item = (value as Record<string, unknown>)[key];
      if (item === undefined) continue;
      Object.defineProperty(out, key, {
        value: copyAt(item, `${path}.${key}`, seen, depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  } finally {
    seen.delete(value);
  }
}

function notJson(path: string, reason: string): MemValidationError {
  return new MemValidationError(
    path,
    `[mem/openai-agents] addItems(items): ${path} cannot be stored: ${reason}. Pass items as the Agents SDK produces them (plain JSON data); nothing of this batch was stored.`,
  );
}
