import { describe } from 'vitest';
import { knowledgeBaseAddTests } from './kb-add-tests.ts';
import { knowledgeBaseBadInputTests } from './kb-bad-input-tests.ts';
import { knowledgeBaseBasicTests } from './kb-basic-tests.ts';
import { knowledgeBaseDeleteTests } from './kb-delete-tests.ts';
import { knowledgeBaseEmbedderTests } from './kb-embedder-tests.ts';
import { knowledgeBaseIsolationTests } from './kb-isolation-tests.ts';
import { knowledgeBaseSearchTests } from './kb-search-tests.ts';
import { knowledgeBaseSemanticTests } from './kb-semantic-tests.ts';
import type { KnowledgeBaseFactory, KnowledgeBaseSuiteOptions } from './kb-suite-options.ts';
import { knowledgeBaseUserBadInputTests } from './kb-user-bad-input-tests.ts';
import { knowledgeBaseUserPropertyTests } from './kb-user-property-tests.ts';
import { knowledgeBaseUserTests } from './kb-user-tests.ts';

/** Every group, in this order; each is also exported to run on its own. */
export const KNOWLEDGE_BASE_TEST_GROUPS = [
  knowledgeBaseBasicTests,
  knowledgeBaseSearchTests,
  knowledgeBaseAddTests,
  knowledgeBaseDeleteTests,
  knowledgeBaseIsolationTests,
  knowledgeBaseBadInputTests,
  knowledgeBaseSemanticTests,
  knowledgeBaseEmbedderTests,
  knowledgeBaseUserTests,
  knowledgeBaseUserBadInputTests,
  knowledgeBaseUserPropertyTests,
] as const;

/**
 * Runs the whole KnowledgeBase conformance suite (`mem.kb.v2`) inside `describe(name)`. The
 * factory passes on the retrieval options the suite asks for (`embedder`, `retrieval`,
 * `minSimilarity`), after its own:
 *
 * ```ts
 * runKnowledgeBaseTests('sqlite', (options) => createSqliteKnowledgeBase({ path, ...options }));
 * ```
 */
export function runKnowledgeBaseTests(
  name: string,
  createKnowledgeBase: KnowledgeBaseFactory,
  options: KnowledgeBaseSuiteOptions = {},
): void {
  describe(`KnowledgeBase conformance: ${name}`, () => {
    for (const group of KNOWLEDGE_BASE_TEST_GROUPS) group(createKnowledgeBase, options);
  });
}
