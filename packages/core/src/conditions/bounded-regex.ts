import { RE2JS, RE2JSException } from 're2js';

/**
 * The engine behind `matches()` in conditions. JavaScript's RegExp backtracks, so a pattern such
 * as `(a+)+$` takes exponential time, and even `a*b` takes quadratic time on a long string.
 * Patterns run on re2js, a pure-JavaScript port of RE2 (the engine CEL specifies): matching is
 * linear in the input, there are no backreferences or lookaround, and both the pattern and the
 * input are capped so one test stays bounded.
 */

/** A pattern was rejected: invalid, unsupported by RE2, or too large. */
export class RegexSyntaxError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RegexSyntaxError';
  }
}

/** Longest pattern accepted, in UTF-16 code units. */
export const MAX_PATTERN_LENGTH = 512;
/**
 * Work budget of one test, in input characters x pattern width (the pattern's length, at least
 * MIN_PATTERN_WIDTH): re2js was measured at up to ~60 ns per step (short patterns such as
 * `(a+)+$` cost as much per character as 24-character ones, hence the minimum width), so one
 * test stays within ~30 ms. Matches the condition work budget (condition-cost.ts).
 */
export const MATCH_STEP_BUDGET = 480_000;
/** Steps per input character of a short pattern. */
export const MIN_PATTERN_WIDTH = 24;
/** Longest input tested, whatever the pattern. */
export const MAX_MATCH_INPUT = Math.floor(MATCH_STEP_BUDGET / MIN_PATTERN_WIDTH);

/** The input is longer than this pattern may scan within the step budget. */
export class RegexInputTooLongError extends Error {
  constructor(
    readonly length: number,
    readonly limit: number,
  ) {
    super(
      `matches() input is ${length} characters, over the ${limit}-character limit for this ` +
        `pattern; guard the call with size(...) <= ${limit}`,
    );
    this.name = 'RegexInputTooLongError';
  }
}

export interface BoundedRegex {
  readonly source: string;
  /** Longest input `test` accepts for this pattern. */
  readonly maxInputLength: number;
  /** True when the pattern matches somewhere in `input` (RE2 partial match). */
  test(input: string): boolean;
}

/** Compiles `pattern`; throws RegexSyntaxError when it is invalid, unsupported or too large. */
export function compileBoundedRegex(pattern: string): BoundedRegex {
  if (pattern.length > MAX_PATTERN_LENGTH) {
    throw new RegexSyntaxError(
      `pattern is ${pattern.length} characters, over the ${MAX_PATTERN_LENGTH} limit`,
    );
  }
  let re: RE2JS;
  try {
    re = RE2JS.compile(pattern);
  } catch (error) {
    const reason = error instanceof RE2JSException ? error.message : String(error);
    throw new RegexSyntaxError(`invalid RE2 pattern: ${reason}`, { cause: error });
  }
  const maxInputLength = Math.min(
    MAX_MATCH_INPUT,
    Math.floor(MATCH_STEP_BUDGET / Math.max(MIN_PATTERN_WIDTH, pattern.length)),
  );
  return {
    source: pattern,
    maxInputLength,
    test(input: string): boolean {
      if (input.length > maxInputLength) {
        throw new RegexInputTooLongError(input.length, maxInputLength);
      }
      return re.matcher(input).find();
    },
  };
}
