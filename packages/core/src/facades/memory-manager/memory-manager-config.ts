import { z } from 'zod';
import { formatPath } from '../../config/parse-profile.ts';
import { storeProblem, tokenCounterProblem } from '../../engine/resolve-parts.ts';
import { type ConfigIssue, MemConfigError } from '../../errors/errors.ts';
import type { Store } from '../../store/store-spec.ts';
import { type SummaryGate, summaryGateProblem } from '../../summarize/summary-gate.ts';
import type { TokenCounter } from '../../tokens/token-counter.ts';
import { partSchema } from '../part-schema.ts';

/** When and how the Memory Manager compresses. */
export interface MemoryConfig {
  /** Active entries above this trigger compression. */
  maxEntries: number;
  /** Active tokens above this trigger compression. */
  maxTokens: number;
  /** The newest entries that always stay active (never compressed). */
  recentWindow: number;
  /** Fewest uncompressed entries a compression must have to replace. */
  minEntriesToCompress: number;
  /** Compress in the background after an add that crosses `maxEntries` or `maxTokens`. */
  autoCompress: boolean;
  /** Summary length as a share of what it replaces (0.3: 30%). */
  compressionRatio: number;
}

export const DEFAULT_MEMORY_CONFIG: Readonly<MemoryConfig> = Object.freeze({
  maxEntries: 100,
  maxTokens: 50_000,
  recentWindow: 10,
  minEntriesToCompress: 5,
  autoCompress: true,
  compressionRatio: 0.3,
});

/** Summarizes a prompt with the caller's LLM: the Memory Manager's summarization hook. */
export type SummarizeCallback = (prompt: string) => Promise<string>;

/** Options of `new MemoryManager(...)`: the config fields plus collaborators. All optional. */
export interface MemoryManagerOptions extends Partial<MemoryConfig> {
  /** Where sessions live. Default: a new in-memory store. */
  store?: Store;
  /** Summarizes with an LLM; see `setSummarizeCallback`. Default: the extractive summary. */
  summarizeCallback?: SummarizeCallback;
  /** Deadline of one summarize call in ms (then the extractive fallback runs); `null`: none. Default 30,000. */
  summarizerTimeout?: number | null;
  /**
   * What tells the callback's summary from an error text or a refusal (the engine's option):
   * `'default'`, `'errors-only'`, `'off'` or your own function. Default `'default'`.
   */
  summaryGate?: SummaryGate;
  /** Counts tokens. Default: gpt-tokenizer, o200k_base. */
  tokenCounter?: TokenCounter;
  /** Clock in ms since the epoch, for entry timestamps. Default `Date.now`. */
  now?: () => number;
  /**
   * The user each session belongs to (`undefined`: none), asked whenever the manager opens a
   * session; return the same user for a session every time. A session of a user is stored for
   * that user, the user's facts (learnt from what the user says) join its context, and
   * `forgetUser(userId)` erases it. Default: sessions without users.
   */
  userOf?: (sessionId: string) => string | undefined;
}

const configShape = {
  maxEntries: z.int().min(1, 'must be a positive number of entries'),
  maxTokens: z.int().min(1, 'must be a positive number of tokens'),
  recentWindow: z.int().min(0, 'must be 0 or more entries'),
  minEntriesToCompress: z.int().min(1, 'must be at least 1 entry'),
  autoCompress: z.boolean(),
  compressionRatio: z
    .number()
    .gt(0, 'must be between 0 and 1 (exclusive), e.g. 0.3')
    .lt(1, 'must be between 0 and 1 (exclusive), e.g. 0.3'),
};

const updateSchema = z.strictObject(configShape).partial();

const optionsSchema = z
  .strictObject({
    store: partSchema<Store>(storeProblem).optional(),
    summarizeCallback: z
      .custom<SummarizeCallback>((v) => typeof v === 'function', {
        message: 'expected a function (prompt: string) => Promise<string>',
      })
      .optional(),
    summarizerTimeout: z
      .number()
      .positive('must be a positive number of ms, or null for no deadline')
      .nullable()
      .optional(),
    summaryGate: partSchema<SummaryGate>(summaryGateProblem).optional(),
    tokenCounter: partSchema<TokenCounter>(tokenCounterProblem).optional(),
    now: z
      .custom<() => number>((v) => typeof v === 'function', {
        message: 'expected a function returning ms since the epoch',
      })
      .optional(),
    userOf: z
      .custom<(sessionId: string) => string | undefined>((v) => typeof v === 'function', {
        message: 'expected a function (sessionId) => the user id of the session, or undefined',
      })
      .optional(),
  })
  .extend(updateSchema.shape);

function issuesOf(error: z.ZodError, known: readonly string[]): ConfigIssue[] {
  return error.issues.flatMap((issue): ConfigIssue[] =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({
          path: formatPath([...issue.path, key]),
          message: `unknown option; expected one of ${known.join(', ')}`,
        }))
      : [{ path: formatPath(issue.path), message: issue.message }],
  );
}

/** Validates constructor options. @throws MemConfigError listing every bad option. */
export function parseMemoryManagerOptions(input: unknown): {
  config: MemoryConfig;
  options: Omit<MemoryManagerOptions, keyof MemoryConfig>;
} {
  const parsed = optionsSchema.safeParse(input ?? {});
  if (!parsed.success) {
    throw new MemConfigError(issuesOf(parsed.error, Object.keys(optionsSchema.shape)), {
      source: 'MemoryManager options',
      cause: parsed.error,
    });
  }
  const {
    store,
    summarizeCallback,
    summarizerTimeout,
    summaryGate,
    tokenCounter,
    now,
    userOf,
    ...config
  } = parsed.data;
  return {
    config: { ...DEFAULT_MEMORY_CONFIG, ...definedOnly(config) },
    options: {
      ...(store === undefined ? {} : { store }),
      ...(summarizeCallback === undefined ? {} : { summarizeCallback }),
      ...(summarizerTimeout === undefined ? {} : { summarizerTimeout }),
      ...(summaryGate === undefined ? {} : { summaryGate }),
      ...(tokenCounter === undefined ? {} : { tokenCounter }),
      ...(now === undefined ? {} : { now }),
      ...(userOf === undefined ? {} : { userOf }),
    },
  };
}

/** `current` with `update` applied. @throws MemConfigError listing every bad field. */
export function applyConfigUpdate(current: MemoryConfig, update: unknown): MemoryConfig {
  const parsed = updateSchema.safeParse(update);
  if (!parsed.success) {
    throw new MemConfigError(issuesOf(parsed.error, Object.keys(configShape)), {
      source: 'MemoryManager.updateConfig',
      cause: parsed.error,
    });
  }
  return { ...current, ...definedOnly(parsed.data) };
}

type Defined<T> = { [K in keyof T]?: Exclude<T[K], undefined> };

function definedOnly<T extends object>(value: T): Defined<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Defined<T>;
}
