import { MemValidationError } from '../errors/errors.ts';
import { FACT_EXTRACTOR_SPECIFICATION_VERSION } from '../facts/fact-extractor.ts';
import {
  KNOWLEDGE_BASE_SPECIFICATION_VERSION,
  type KnowledgeBase,
} from '../knowledge/knowledge-base-spec.ts';
import { STORE_SPECIFICATION_VERSION } from '../store/store-spec.ts';
import { SUMMARIZER_SPECIFICATION_VERSION } from '../summarize/summarizer.ts';
import { summaryGateProblem } from '../summarize/summary-gate.ts';

/**
 * Checks the parts a user plugs in against the spec versions this `@mem/core` speaks, before any
 * is used: a part written for another version, or missing a method, is refused with the reason,
 * never half-used. Capabilities are read where core depends on them: a knowledge base must rank
 * by words or by meaning. A store's capabilities (`ttl`, `multiProcess`, `durable`) describe it
 * for users and tests; core behaves the same with any of them.
 */

const STORE_METHODS = [
  'append',
  'read',
  'info',
  'compact',
  'erase',
  'replace',
  'flush',
  'clear',
  'summaries',
  'archived',
  'list',
  'export',
  'import',
  'close',
  'userFacts',
  'writeUserFacts',
  'forgetUser',
] as const;
const KNOWLEDGE_BASE_METHODS = ['add', 'search', 'delete', 'count'] as const;

/** Why `value` is not a Store this core can use, or undefined when it is. */
export function storeProblem(value: unknown): string | undefined {
  return partProblem(value, {
    what: 'a Store',
    version: STORE_SPECIFICATION_VERSION,
    methods: STORE_METHODS,
    example: 'createInMemoryStore(), createSqliteStore(...) or createRedisStore(...)',
  });
}

/** Why `value` is not a KnowledgeBase this core can use, or undefined when it is. */
export function knowledgeBaseProblem(value: unknown): string | undefined {
  const problem = partProblem(value, {
    what: 'a KnowledgeBase',
    version: KNOWLEDGE_BASE_SPECIFICATION_VERSION,
    methods: KNOWLEDGE_BASE_METHODS,
    example: 'createInMemoryKnowledgeBase() or createSqliteKnowledgeBase(...)',
  });
  if (problem !== undefined) return problem;
  const capabilities = (value as Partial<KnowledgeBase>).capabilities;
  if (capabilities?.lexical !== true && capabilities?.semantic !== true) {
    return 'expected a KnowledgeBase that ranks by words or by meaning (capabilities.lexical or capabilities.semantic true); this one declares neither, so nothing could be recalled';
  }
  return undefined;
}

/** Why `value` is not a summarizer this core can use, or undefined when it is. */
export function summarizerProblem(value: unknown): string | undefined {
  if (typeof value === 'function') return undefined;
  return partProblem(value, {
    what: 'a summarizer: a function (input, options) => string, or an object with summarize()',
    version: SUMMARIZER_SPECIFICATION_VERSION,
    methods: ['summarize'],
    example: 'createChainOfDensitySummarizer(...) from @mem/summarizers',
  });
}

/** Why `value` is not a fact extractor this core can use, or undefined when it is. */
export function factExtractorProblem(value: unknown): string | undefined {
  const problem = partProblem(value, {
    what: 'a FactExtractor',
    version: FACT_EXTRACTOR_SPECIFICATION_VERSION,
    methods: ['extract'],
    example: 'createRuleFactExtractor() or createLlmFactExtractor(...) from @mem/summarizers',
  });
  if (problem !== undefined) return problem;
  const id = (value as { id?: unknown }).id;
  return typeof id === 'string' && id.length > 0
    ? undefined
    : 'expected a FactExtractor with an id (a non-empty string naming it in events and errors)';
}

function partProblem(
  value: unknown,
  part: { what: string; version: string; methods: readonly string[]; example: string },
): string | undefined {
  if (typeof value !== 'object' || value === null) {
    return `expected ${part.what} (specificationVersion "${part.version}"), e.g. ${part.example}; got ${value === null ? 'null' : typeof value}`;
  }
  const record = value as Record<string, unknown>;
  const version = record.specificationVersion;
  if (version !== part.version) {
    return version === undefined
      ? `expected ${part.what} with specificationVersion "${part.version}"; this one has none (set it, or use e.g. ${part.example})`
      : `expected ${part.what} of specificationVersion "${part.version}", got ${JSON.stringify(version)}: it was written for another version of @mem/core; use versions of @mem packages that match`;
  }
  const missing = part.methods.filter((m) => typeof record[m] !== 'function');
  if (missing.length > 0) {
    return `expected ${part.what}: ${missing.map((m) => `${m}()`).join(', ')} missing`;
  }
  return undefined;
}

/** Why `value` is not a TokenCounter, or undefined when it is. */
export function tokenCounterProblem(value: unknown): string | undefined {
  const ok =
    typeof value === 'object' &&
    value !== null &&
    ['countText', 'countMessage'].every(
      (m) => typeof (value as Record<string, unknown>)[m] === 'function',
    );
  return ok
    ? undefined
    : 'expected a TokenCounter (countText and countMessage), e.g. createTokenCounter()';
}

/** Throws a MemValidationError naming `field` when `problem` is set. */
function refuse(field: string, problem: string | undefined): void {
  if (problem !== undefined)
    throw new MemValidationError(field, `[mem/core] ${field}: ${problem}.`);
}

/** The engine's check of what it was given: each part present is of the version core speaks. */
export function checkParts(parts: {
  store?: unknown;
  knowledgeBase?: unknown;
  summarizer?: unknown;
  factExtractor?: unknown;
  tokenCounter?: unknown;
  summaryGate?: unknown;
}): void {
  if (parts.store !== undefined) refuse('store', storeProblem(parts.store));
  if (parts.knowledgeBase !== undefined) {
    refuse('knowledgeBase', knowledgeBaseProblem(parts.knowledgeBase));
  }
  if (parts.summarizer !== undefined) refuse('summarizer', summarizerProblem(parts.summarizer));
  if (parts.factExtractor !== undefined && parts.factExtractor !== null) {
    refuse('factExtractor', factExtractorProblem(parts.factExtractor));
  }
  if (parts.summaryGate !== undefined) refuse('summaryGate', summaryGateProblem(parts.summaryGate));
  // The engine also takes a function of the model id (checked on each counter it returns).
  if (parts.tokenCounter !== undefined && typeof parts.tokenCounter !== 'function') {
    refuse('tokenCounter', tokenCounterProblem(parts.tokenCounter));
  }
}
