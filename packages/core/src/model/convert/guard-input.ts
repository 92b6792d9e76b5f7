import { MemError } from '../../errors/mem-error.ts';
import type { Fail } from './conversion-error.ts';
import { isRecord } from './wire-fields.ts';

/**
 * The converters' last line of defence: input they do not expect (a getter or proxy that
 * throws, a cycle, nesting deeper than the stack, a value of the wrong type deep inside) fails
 * as a MemConversionError naming the item, never as a raw TypeError or RangeError.
 */

const READ_FIX =
  'Pass plain data as the SDK builds it: no getters or proxies that throw, no cycles, no nesting hundreds of levels deep.';

const isMemError = (error: unknown): boolean => {
  try {
    return MemError.isInstance(error);
  } catch {
    return false;
  }
};

/** What went wrong, in words, for an error the converter did not raise itself. */
function problemOf(error: unknown): string {
  let what = 'an unknown error';
  try {
    what = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  } catch {
    // A thrown value that cannot even be described.
  }
  if (error instanceof RangeError && /call stack/i.test(what)) {
    return 'is nested too deeply or holds a cycle';
  }
  return `could not be converted (${what.slice(0, 200)})`;
}

/** Runs `run` for the item at `path`; an error other than a MemError becomes `fail(path, ...)`. */
export function guarded<T>(fail: Fail, path: string, run: () => T, fix = READ_FIX): T {
  try {
    return run();
  } catch (error) {
    if (isMemError(error)) throw error;
    throw fail(path, problemOf(error), fix, error);
  }
}

const ROLES: ReadonlySet<unknown> = new Set(['system', 'user', 'assistant', 'tool']);
const MEM_FIX = 'Pass mem messages as the engine or a from* converter gives them.';

/** Checks the fields every writer reads first; the rest is guarded by `guarded`. */
export function checkMemMessage(m: unknown, path: string, fail: Fail): void {
  if (!isRecord(m)) throw fail(path, 'is not a message object', MEM_FIX);
  if (!ROLES.has(m.role)) {
    throw fail(
      `${path}.role`,
      `is ${typeof m.role === 'string' ? JSON.stringify(m.role) : `a ${typeof m.role}`}`,
      'Use "system", "user", "assistant" or "tool".',
    );
  }
  if (typeof m.content !== 'string' && !Array.isArray(m.content)) {
    throw fail(`${path}.content`, 'is neither a string nor an array of parts', MEM_FIX);
  }
  if (m.toolCalls !== undefined && !Array.isArray(m.toolCalls)) {
    throw fail(`${path}.toolCalls`, 'is not an array', MEM_FIX);
  }
  if (m.metadata !== undefined && !isRecord(m.metadata)) {
    throw fail(`${path}.metadata`, 'is not an object', MEM_FIX);
  }
}

/** The messages a writer was given, as an array; anything else fails naming `messages`. */
export function memMessages<M>(messages: readonly M[], fail: Fail): readonly M[] {
  if (!Array.isArray(messages)) {
    throw fail('messages', 'is not an array', 'Pass an array of mem messages.');
  }
  return messages;
}
