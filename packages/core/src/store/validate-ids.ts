import { type ConfigIssue, MemValidationError } from '../errors/errors.ts';

/** Longest accepted session id, in UTF-16 code units. */
export const MAX_SESSION_ID_LENGTH = 512;

/** True when `text` holds a C0 control character or DEL. */
function hasControlChar(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}
const NAMESPACE = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/**
 * Session ids are opaque user data: any well-formed Unicode string of 1 to 512 code units
 * without control characters. Backends must store such ids exactly and must never let one reach
 * SQL text or a key pattern.
 */
export function assertValidSessionId(
  sessionId: unknown,
  field = 'sessionId',
): asserts sessionId is string {
  const problem = sessionIdProblem(sessionId);
  if (problem !== undefined) throw invalidId(field, problem);
}

/**
 * Why `value` is not a valid session (or user) id, or undefined when it is one; the text reads
 * after "invalid <field>: ".
 */
export function sessionIdProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return `expected a string, got ${typeof value}`;
  if (value.length === 0) return 'it is empty; pass a non-empty id';
  if (value.length > MAX_SESSION_ID_LENGTH) {
    return `it is ${value.length} characters long; the limit is ${MAX_SESSION_ID_LENGTH}`;
  }
  if (!value.isWellFormed()) {
    return 'it contains a lone UTF-16 surrogate (not valid Unicode); pass well-formed text';
  }
  if (hasControlChar(value)) {
    return 'it contains a control character (NUL, newline, ...); remove it';
  }
  return undefined;
}

/**
 * User ids follow the session id rules (1-512 code units of well-formed Unicode, no control
 * characters): opaque data, stored exactly, never SQL text or a key pattern.
 */
export function assertValidUserId(userId: unknown, field = 'userId'): asserts userId is string {
  assertValidSessionId(userId, field);
}

/** No closure per check: this runs on every store call. */
function invalidId(field: string, why: string): MemValidationError {
  return new MemValidationError(field, `[mem/store] invalid ${field}: ${why}`);
}

/** Namespaces (tenants) are short identifiers: letters, digits, `_` and `-`, at most 64. */
/** A `namespace` option with its default (`'default'`), or the issue to report for it. */
export function namespaceOption(namespace: unknown, issues: ConfigIssue[]): string {
  const value = namespace ?? 'default';
  if (typeof value !== 'string' || !NAMESPACE.test(value)) {
    issues.push({ path: 'namespace', message: NAMESPACE_RULE });
  }
  return value as string;
}

const NAMESPACE_RULE = 'use 1-64 letters, digits, "_" or "-", starting with a letter or digit';

export function assertValidNamespace(
  namespace: unknown,
  field = 'namespace',
): asserts namespace is string {
  if (typeof namespace !== 'string' || !NAMESPACE.test(namespace)) {
    throw new MemValidationError(
      field,
      `[mem/store] invalid ${field} ${JSON.stringify(namespace)}: ${NAMESPACE_RULE}`,
    );
  }
}
