import { MemError, type MemErrorOptions } from './mem-error.ts';

/** One problem found in a config: where it is and what was expected there. */
export interface ConfigIssue {
  /** Dotted path into the config as the user wrote it, e.g. `short_term_memory_strategy[0].memory_max_tokens`. */
  path: string;
  message: string;
}

/** A profile or option object is invalid. Lists every bad path, not just the first. */
export class MemConfigError extends MemError {
  readonly issues: readonly ConfigIssue[];

  constructor(issues: readonly ConfigIssue[], options: MemErrorOptions & { source?: string } = {}) {
    const where = options.source ? ` in ${options.source}` : '';
    const lines = issues.map((i) => `  - ${i.path || '(root)'}: ${i.message}`).join('\n');
    super(
      'MEM_CONFIG',
      `[mem/core] invalid config${where} (${issues.length} problem${issues.length === 1 ? '' : 's'}); fix these paths:\n${lines}`,
      options,
    );
    this.name = 'MemConfigError';
    this.issues = issues;
  }
}

/** A condition expression failed while being evaluated on a message. */
export class MemConditionError extends MemError {
  readonly expression: string;
  readonly path: string;
  readonly messageId: string | undefined;

  constructor(
    init: { expression: string; path: string; messageId?: string; reason: string },
    options: MemErrorOptions = {},
  ) {
    const on = init.messageId === undefined ? '' : ` on message ${JSON.stringify(init.messageId)}`;
    super(
      'MEM_CONDITION',
      `[mem/core] condition ${init.path} (${JSON.stringify(init.expression)}) failed${on}: ${init.reason}.` +
        (/no such key|undefined|not found/i.test(init.reason)
          ? ' Guard optional fields with has(...), e.g. has(message.metadata.x) && message.metadata.x == 1.'
          : ''),
      options,
    );
    this.name = 'MemConditionError';
    this.expression = init.expression;
    this.path = init.path;
    this.messageId = init.messageId;
  }
}

/** Input data (a message, a session id, a wire-format message) is invalid. */
export class MemValidationError extends MemError {
  readonly field: string;

  constructor(
    field: string,
    message: string,
    options: MemErrorOptions = {},
    code: 'MEM_VALIDATION' | 'MEM_CONVERSION' = 'MEM_VALIDATION',
  ) {
    super(code, message, options);
    this.name = 'MemValidationError';
    this.field = field;
  }
}

/**
 * A message could not be converted to or from a provider wire format. It is a kind of
 * `MemValidationError` (malformed input), with its own code `MEM_CONVERSION`; `field` is the
 * format unless the converter names a path.
 */
export class MemConversionError extends MemValidationError {
  readonly format: string;

  constructor(format: string, message: string, options: MemErrorOptions & { field?: string } = {}) {
    const { field, ...rest } = options;
    super(field ?? format, message, rest, 'MEM_CONVERSION');
    this.name = 'MemConversionError';
    this.format = format;
  }
}

/** A store operation failed (connection, I/O, corrupt data read back). */
export class MemStoreError extends MemError {
  constructor(message: string, options: MemErrorOptions = {}) {
    super('MEM_STORE', message, options);
    this.name = 'MemStoreError';
  }
}

/** Which counter a compare-and-swap write was checked against. */
export type ConflictCounter = 'version' | 'epoch';

/**
 * A compare-and-swap write lost: the session changed under it. `counter` says which check
 * failed: `'version'` (a `replace` with `expectedVersion`: any write moved the session; reload and
 * retry) or `'epoch'` (a `compact`/`erase` planned at `expectedEpoch`: another compaction, erase,
 * replace or clear rewrote the session; read it again and re-plan).
 */
export class MemStoreConflictError extends MemError {
  /** The session that changed; empty for a conflict on a user's facts (see `userId`). */
  readonly sessionId: string;
  /** The user whose facts changed under a `writeUserFacts` (no session involved). */
  readonly userId: string | undefined;
  readonly counter: ConflictCounter;
  readonly expected: number;
  readonly actual: number;

  constructor(
    init: {
      sessionId: string;
      counter: ConflictCounter;
      expected: number;
      actual: number;
      userId?: string;
    },
    options: MemErrorOptions = {},
  ) {
    const session = `[mem/store] session ${JSON.stringify(init.sessionId)}`;
    super(
      'MEM_STORE_CONFLICT',
      init.userId !== undefined
        ? `[mem/store] the facts of user ${JSON.stringify(init.userId)} are at version ${init.actual}, ` +
            `expected ${init.expected}: another writer changed them. Read them again and re-apply your change.`
        : init.counter === 'epoch'
          ? `${session} is at epoch ${init.actual}, expected ${init.expected}: another compaction, ` +
            'erase, replace or clear rewrote it first. Read the session again and re-plan.'
          : `${session} is at version ${init.actual}, expected ${init.expected}: it changed ` +
            'concurrently. Reload and retry.',
      options,
    );
    this.name = 'MemStoreConflictError';
    this.sessionId = init.sessionId;
    this.userId = init.userId;
    this.counter = init.counter;
    this.expected = init.expected;
    this.actual = init.actual;
  }
}

/** A summarizer failed, timed out, or returned unusable output. */
export class MemSummarizerError extends MemError {
  constructor(message: string, options: MemErrorOptions = {}) {
    super('MEM_SUMMARIZER', message, options);
    this.name = 'MemSummarizerError';
  }
}
