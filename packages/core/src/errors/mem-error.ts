const marker = Symbol.for('mem.error');

/** Stable, machine-readable error codes. Never renamed once published. */
export type MemErrorCode =
  | 'MEM_CONFIG'
  | 'MEM_CONDITION'
  | 'MEM_VALIDATION'
  | 'MEM_CONVERSION'
  | 'MEM_STORE'
  | 'MEM_STORE_CONFLICT'
  | 'MEM_SUMMARIZER'
  | 'MEM_TOKENIZER';

export interface MemErrorOptions {
  cause?: unknown;
}

/**
 * Base of every error thrown by mem. Check with `MemError.isInstance(e)` rather than
 * `instanceof`, which breaks when two copies of `@mem/core` are installed.
 */
export class MemError extends Error {
  readonly [marker] = true;
  readonly code: MemErrorCode;

  constructor(code: MemErrorCode, message: string, options: MemErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'MemError';
    this.code = code;
  }

  static isInstance(error: unknown): error is MemError {
    return typeof error === 'object' && error !== null && marker in error;
  }

  /** True when `error` is a MemError carrying `code`. */
  static hasCode(error: unknown, code: MemErrorCode): error is MemError {
    return MemError.isInstance(error) && error.code === code;
  }
}
