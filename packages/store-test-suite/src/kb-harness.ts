import type { KnowledgeBase } from '@mem/core/backend';
import { afterAll, afterEach } from 'vitest';
import { freshNamespace } from './harness.ts';
import { KNOWLEDGE_CORPUS, TEST_COLLECTION } from './kb-fixtures.ts';
import type {
  KnowledgeBaseFactory,
  KnowledgeBaseFactoryOptions,
  KnowledgeBaseSuiteOptions,
} from './kb-suite-options.ts';

/** Retrieval options a test asks the factory for. */
export type RetrievalRequest = Omit<KnowledgeBaseFactoryOptions, 'namespace'>;

export interface KnowledgeBaseHarness {
  /**
   * A knowledge base bound to `namespace` (default: a fresh one), built with `retrieval` when
   * given, closed after the test.
   */
  open(namespace?: string, retrieval?: RetrievalRequest): Promise<KnowledgeBase>;
  /** A fresh knowledge base holding `KNOWLEDGE_CORPUS` in `TEST_COLLECTION`. */
  seeded(): Promise<KnowledgeBase>;
}

/** Registers the hooks of one group: close what each test opened, run `cleanup` at the end. */
export function useKnowledgeBases(
  createKnowledgeBase: KnowledgeBaseFactory,
  options: KnowledgeBaseSuiteOptions,
): KnowledgeBaseHarness {
  const opened: KnowledgeBase[] = [];
  afterEach(async () => {
    const bases = opened.splice(0);
    await Promise.all(bases.map((kb) => kb.close()));
  });
  afterAll(async () => {
    await options.cleanup?.();
  });
  const open = async (namespace = freshNamespace(), retrieval: RetrievalRequest = {}) => {
    const kb = await createKnowledgeBase({ ...retrieval, namespace });
    opened.push(kb);
    return kb;
  };
  return {
    open,
    seeded: async () => {
      const kb = await open();
      await kb.add(TEST_COLLECTION, KNOWLEDGE_CORPUS);
      return kb;
    },
  };
}
