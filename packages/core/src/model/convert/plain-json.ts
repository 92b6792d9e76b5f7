import { isPlainObject } from './deep-equal.ts';

/**
 * True when `JSON.stringify` keeps `value` as it is: null, booleans, strings, finite numbers,
 * arrays and plain objects of those (keys holding `undefined` are dropped, as absent). False for
 * `undefined`, NaN, Infinity, Dates, Maps, class instances, functions, holes...
 */
export function isPlainJson(value: unknown): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'object': {
      if (value === null) return true;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
          if (!(i in value) || !isPlainJson(value[i])) return false;
        }
        return true;
      }
      if (!isPlainObject(value)) return false;
      return Object.values(value).every((v) => v === undefined || isPlainJson(v));
    }
    default:
      return false;
  }
}
