import { expect } from 'vitest';
import { MemError } from '../../../errors/mem-error.ts';

/** Conversion options giving ids `id0`, `id1`... and a fixed creation time. */
export function sequentialIds(now = 42) {
  let n = 0;
  return { generateId: () => `id${n++}`, now: () => now };
}

/** Asserts `run` throws a MemConversionError starting with `[mem/core]` and naming `where`. */
export function expectConversionError(run: () => unknown, where: string): void {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  expect(
    MemError.hasCode(caught, 'MEM_CONVERSION'),
    `expected a MemConversionError for ${where}`,
  ).toBe(true);
  const message = (caught as MemError).message;
  expect(message.startsWith('[mem/core] ')).toBe(true);
  expect(message).toContain(where);
}
