import type { z } from 'zod';
import { type CompiledCondition, compileConditions } from '../conditions/compile-condition.ts';
import { type ConfigIssue, MemConfigError } from '../errors/errors.ts';
import { MemError } from '../errors/mem-error.ts';
import type { LongTermStrategy } from '../strategies/long-term/long-term-strategy.ts';
import { longTermRegistry, registeredOnly } from '../strategies/long-term/strategy-registry.ts';
import {
  type ProfileConfig,
  type ProfileLongTermConfig,
  profileSchemaWith,
  type ShortTermStrategyConfig,
} from './profile-schema.ts';

/** A validated profile with every condition compiled, ready for the engine. */
export interface MemoryProfile {
  /** The normalized config, defaults filled in (snake_case, JSON-serializable). */
  readonly config: ProfileConfig;
  readonly shortTerm: ReadonlyArray<{
    readonly config: ShortTermStrategyConfig;
    readonly conditions: readonly CompiledCondition[];
  }>;
  readonly longTerm: ReadonlyArray<{
    readonly config: ProfileLongTermConfig;
    readonly interactionConditions: readonly CompiledCondition[];
  }>;
}

export interface ParseOptions {
  /** Where the config came from (a file name), for error messages. */
  source?: string;
  /**
   * Long-term strategies of your own, accepted next to `summarizer` and `neuralyzer` (the same
   * list goes to `createMemoryEngine`).
   */
  // biome-ignore lint/suspicious/noExplicitAny: strategies of any config type.
  longTermStrategies?: readonly LongTermStrategy<any>[];
}

/** `a.b[0].c` from a zod issue path. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out.length === 0 ? String(key) : `.${String(key)}`;
  }
  return out;
}

function zodIssues(error: z.ZodError, prefix: string): ConfigIssue[] {
  return error.issues.map((issue) => ({
    path: formatPath([...(prefix ? [prefix] : []), ...issue.path]),
    message: issue.message,
  }));
}

function isWrapped(input: unknown): input is { profile: unknown } {
  return (
    typeof input === 'object' &&
    input !== null &&
    !Array.isArray(input) &&
    Object.keys(input).length === 1 &&
    'profile' in input
  );
}

function collectConditions(
  list: unknown,
  path: string,
  issues: ConfigIssue[],
): CompiledCondition[] {
  if (!Array.isArray(list) || !list.every((c) => typeof c === 'string')) return [];
  try {
    return compileConditions(list, path);
  } catch (error) {
    if (MemError.hasCode(error, 'MEM_CONFIG')) {
      issues.push(...(error as MemConfigError).issues);
      return [];
    }
    throw error;
  }
}

const entriesOf = (value: unknown, key: string): unknown[] => {
  if (typeof value !== 'object' || value === null) return [];
  const list = (value as Record<string, unknown>)[key];
  return Array.isArray(list) ? list : [];
};
const field = (entry: unknown, key: string): unknown =>
  typeof entry === 'object' && entry !== null ? (entry as Record<string, unknown>)[key] : undefined;

/**
 * Validates a memory profile — bare or wrapped as `{ "profile": { ... } }`, snake_case exactly as
 * the seeds write it — fills in defaults and compiles every condition once. Throws one
 * `MemConfigError` listing every bad path (schema problems and conditions that do not compile).
 */
export function parseProfile(input: unknown, options: ParseOptions = {}): MemoryProfile {
  const wrapped = isWrapped(input);
  const raw = wrapped ? input.profile : input;
  const prefix = wrapped ? 'profile' : '';
  const at = (rest: string) => (prefix ? `${prefix}.${rest}` : rest);
  const issues: ConfigIssue[] = [];
  // Conditions are compiled from the raw input so their errors are reported with schema errors.
  const shortConditions = entriesOf(raw, 'short_term_memory_strategy').map((entry, i) =>
    collectConditions(
      field(entry, 'conditions') ?? [],
      at(`short_term_memory_strategy[${i}].conditions`),
      issues,
    ),
  );
  const longConditions = entriesOf(raw, 'long_term_memory_strategy').map((entry, i) =>
    collectConditions(
      field(entry, 'interaction_conditions') ?? [],
      at(`long_term_memory_strategy[${i}].interaction_conditions`),
      issues,
    ),
  );
  const schema = profileSchemaWith(registeredOnly(longTermRegistry(options.longTermStrategies)));
  const parsed = schema.safeParse(raw);
  if (!parsed.success) issues.unshift(...zodIssues(parsed.error, prefix));
  if (issues.length > 0 || !parsed.success) throw new MemConfigError(issues, withSource(options));
  const config = parsed.data;
  return {
    config,
    shortTerm: config.short_term_memory_strategy.map((entry, i) => ({
      config: entry,
      conditions: shortConditions[i] ?? [],
    })),
    longTerm: config.long_term_memory_strategy.map((entry, i) => ({
      config: entry,
      interactionConditions: longConditions[i] ?? [],
    })),
  };
}

/** Validates one short-term strategy entry such as `{ "memory_strategy_id": "max_tokens", ... }`. */
export function parseShortTermStrategy(
  input: unknown,
  options: ParseOptions = {},
): MemoryProfile['shortTerm'][number] {
  return parseEntry('short_term_memory_strategy', input, options).shortTerm[0]!;
}

/** Validates one long-term strategy entry such as `{ "long_term_memory_id": "summarizer", ... }`. */
export function parseLongTermStrategy(
  input: unknown,
  options: ParseOptions = {},
): MemoryProfile['longTerm'][number] {
  return parseEntry('long_term_memory_strategy', input, options).longTerm[0]!;
}

/** Parses one entry as a one-entry profile, reporting paths relative to the entry. */
function parseEntry(key: string, input: unknown, options: ParseOptions): MemoryProfile {
  try {
    return parseProfile({ [key]: [input] }, options);
  } catch (error) {
    if (!MemError.hasCode(error, 'MEM_CONFIG')) throw error;
    const inner = `${key}[0]`;
    const issues = (error as MemConfigError).issues.map((issue) => ({
      ...issue,
      path: issue.path.startsWith(`${inner}.`) ? issue.path.slice(inner.length + 1) : issue.path,
    }));
    throw new MemConfigError(issues, { ...withSource(options), cause: error });
  }
}

function withSource(options: ParseOptions): { source?: string } {
  return options.source === undefined ? {} : { source: options.source };
}
