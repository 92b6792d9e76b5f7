import type { ErrorDetails } from './contract.ts';
import { HttpError } from './http-json.ts';

/** What a user id may be in the playground: 1-64 letters, digits, `_` or `-`. */
export const USER_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * A request's `user`, checked: a string of 1-64 letters, digits, `_` or `-`; undefined when
 * absent and not `required`. @throws HttpError 400 naming the field `user`.
 */
export function readUser(value: unknown, required: boolean): string | undefined {
  const bad = (message: string, extra: ErrorDetails = {}) =>
    new HttpError(400, message, { field: 'user', ...extra });
  if (value === undefined) {
    if (!required) return undefined;
    throw bad('"user" is missing: send { "user": "<the user id of the last replay>" }.');
  }
  if (typeof value !== 'string') {
    const got = value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
    throw bad(`"user" must be a string, got ${got}.`);
  }
  if (!USER_ID.test(value)) {
    throw bad(
      `"user" must be 1 to 64 letters, digits, "_" or "-" (e.g. "maren"), got ${JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value)}.`,
    );
  }
  return value;
}
