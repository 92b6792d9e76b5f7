import type { z } from 'zod';
import { compileConditions, type CompiledCondition } from '../conditions/compile-condition.ts';
import { type ConfigIssue, MemConfigError } from '../errors/errors.ts';
import { MemError } from '../errors/mem-error.ts';
import {
  type LongTermStrategyConfig,
  type ProfileConfig,
  profileSchema,
  type ShortTermStrategyConfig,
  shortTermStrategySchema,
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
    readonly config: LongTermStrategyConfig;
    readonly interactionConditions: readonly CompiledCondition[];
  }>;
}

export interface ParseOptions {
  /** Where the config came from (a file name), for error messages. */
  source?: string;
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
  list: readonly string[],
  path: string,
  issues: ConfigIssue[],
): CompiledCondition[] {
  try {
    return compileConditions(list, path);
  } catch (error) {
    if (MemError.isInstance(error) && error instanceof MemConfigError) {
      issues.push(...error.issues);
      return [];
    }
    throw error;
  }
}

/**
 * Validates a memory profile — bare or wrapped as `{ "profile": { ... } }`, snake_case exactly as
 * the seeds write it — fills in defaults and compiles every condition once. Throws one
 * `MemConfigError` listing every bad path.
 */
export function parseProfile(input: unknown, options: ParseOptions = {}): MemoryProfile {
  const wrapped = isWrapped(input);
  const prefix = wrapped ? 'profile' : '';
  const parsed = profileSchema.safeParse(wrapped ? input.profile : input);
  if (!parsed.success) {
    throw new MemConfigError(zodIssues(parsed.error, prefix), withSource(options));
  }
  const config = parsed.data;
  const at = (rest: string) => (prefix ? `${prefix}.${rest}` : rest);
  const issues: ConfigIssue[] = [];
  const shortTerm = config.short_term_memory_strategy.map((entry, i) => ({
    config: entry,
    conditions: collectConditions(
      entry.conditions,
      at(`short_term_memory_strategy[${i}].conditions`),
      issues,
    ),
  }));
  const longTerm = config.long_term_memory_strategy.map((entry, i) => ({
    config: entry,
    interactionConditions: collectConditions(
      entry.interaction_conditions,
      at(`long_term_memory_strategy[${i}].interaction_conditions`),
      issues,
    ),
  }));
  if (issues.length > 0) throw new MemConfigError(issues, withSource(options));
  return { config, shortTerm, longTerm };
}

/** Validates one short-term strategy entry such as `{ "memory_strategy_id": "max_tokens", ... }`. */
export function parseShortTermStrategy(
  input: unknown,
  options: ParseOptions = {},
): MemoryProfile['shortTerm'][number] {
  const parsed = shortTermStrategySchema.safeParse(input);
  if (!parsed.success) throw new MemConfigError(zodIssues(parsed.error, ''), withSource(options));
  const issues: ConfigIssue[] = [];
  const conditions = collectConditions(parsed.data.conditions, 'conditions', issues);
  if (issues.length > 0) throw new MemConfigError(issues, withSource(options));
  return { config: parsed.data, conditions };
}

function withSource(options: ParseOptions): { source?: string } {
  return options.source === undefined ? {} : { source: options.source };
}
