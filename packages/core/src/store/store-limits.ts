/*
 * Limits every Store backend enforces the same way (through core's shared input checks), so a
 * value one backend accepts, every backend stores exactly. A value past a limit is rejected with
 * `MemValidationError` naming its path; nothing is written.
 */

/**
 * Deepest nesting of objects and arrays inside a stored message: `metadata` itself is level 1,
 * `metadata.a` (an object) level 2, and so on; a content array is level 1 and its parts level 2.
 * Anything deeper cannot be copied or encoded without risking a stack overflow.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * Largest `tokenCount` of one stored message (100 million, far above any model's context). It
 * keeps every session total a safe integer: with this cap a total leaves the exact range only
 * after some 90 million messages.
 */
export const MAX_MESSAGE_TOKENS = 100_000_000;

/**
 * Longest idempotency key, in UTF-16 code units. Keys, like session, message and summary ids,
 * must be well-formed Unicode: backends index them as UTF-8, where a lone surrogate would become
 * U+FFFD and two distinct keys would collide.
 */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 512;
