import { Environment } from '@marcbachmann/cel-js';
import { type BoundedRegex, compileBoundedRegex } from './bounded-regex.ts';
import { InteractionConditionVars, MessageConditionVars } from './condition-vars.ts';

/** Structural limits of one condition, checked when it is compiled. */
export const CONDITION_LIMITS = {
  /** Longest expression, in characters. */
  maxLength: 4096,
  /** Most syntax-tree nodes. */
  maxAstNodes: 1024,
  /** Deepest nesting of parentheses, calls, selections, indexes and literals. */
  maxDepth: 32,
  /** Most elements in one list literal. */
  maxListElements: 256,
  /** Most entries in one map literal. */
  maxMapEntries: 256,
  /** Most arguments in one call. */
  maxCallArguments: 8,
} as const;

/**
 * CEL's `string.matches` runs JavaScript's backtracking RegExp and cannot be replaced in the
 * library (overloads may not overlap), so compiling a condition renames every `.matches(...)`
 * call to this function, which runs the linear-time engine of bounded-regex.ts instead.
 */
export const BOUNDED_MATCHES = 'memBoundedMatches';

const MAX_CACHED_PATTERNS = 256;
const patternCache = new Map<string, BoundedRegex>();

/** The compiled regex for `pattern`, cached. Throws RegexSyntaxError for a bad pattern. */
export function boundedRegex(pattern: string): BoundedRegex {
  let regex = patternCache.get(pattern);
  if (regex === undefined) {
    regex = compileBoundedRegex(pattern);
    if (patternCache.size >= MAX_CACHED_PATTERNS) patternCache.clear();
    patternCache.set(pattern, regex);
  }
  return regex;
}

function boundedMatches(input: string, pattern: string): boolean {
  return boundedRegex(pattern).test(input);
}

let environment: Environment | undefined;

/**
 * The one CEL environment every condition is compiled in: `message` and `interaction` declared
 * with their field types (so unknown fields and functions fail when the config loads), no
 * undeclared variables, and the limits above. Built on first use.
 */
export function conditionEnvironment(): Environment {
  environment ??= new Environment({
    unlistedVariablesAreDyn: false,
    homogeneousAggregateLiterals: true,
    enableOptionalTypes: false,
    limits: {
      maxAstNodes: CONDITION_LIMITS.maxAstNodes,
      maxDepth: CONDITION_LIMITS.maxDepth,
      maxListElements: CONDITION_LIMITS.maxListElements,
      maxMapEntries: CONDITION_LIMITS.maxMapEntries,
      maxCallArguments: CONDITION_LIMITS.maxCallArguments,
    },
  })
    .registerType('Message', {
      ctor: MessageConditionVars,
      fields: {
        role: 'string',
        content: 'string',
        name: 'string',
        toolName: 'string',
        isError: 'bool',
        tokenCount: 'int',
        metadata: 'map<string, dyn>',
      },
    })
    .registerType('Interaction', {
      ctor: InteractionConditionVars,
      fields: {
        index: 'int',
        messageCount: 'int',
        tokenCount: 'int',
        toolNames: 'list<string>',
        hasError: 'bool',
        isCurrent: 'bool',
      },
    })
    .registerVariable('message', 'Message', { description: 'The message being filtered.' })
    .registerVariable('interaction', 'Interaction', {
      description: 'The interaction being filtered.',
    })
    .registerFunction(`string.${BOUNDED_MATCHES}(string): bool`, boundedMatches)
    .registerFunction('matches(string, string): bool', boundedMatches);
  return environment;
}
