import type { Embedder, KnowledgeBase, KnowledgeRetrieval } from '@mem/core/backend';

/** What the suite asks a factory for. */
export interface KnowledgeBaseFactoryOptions {
  namespace: string;
  /**
   * Given by the semantic group (`knowledgeBaseSemanticTests`), which builds knowledge bases with
   * its own test embedder: these win over any retrieval option the factory sets itself.
   */
  embedder?: Embedder;
  retrieval?: KnowledgeRetrieval;
  minSimilarity?: number;
}

/**
 * Builds a knowledge base bound to `namespace` (and with the given retrieval options, passed on
 * as they are). Knowledge bases with the same namespace must see the same collections when the
 * backend is durable (one file, one server); every namespace should live in the same backing
 * data, so the suite can prove namespaces are isolated. May return a fresh instance each time;
 * the suite closes every knowledge base it opens. It may throw (or reject) on bad options.
 */
export type KnowledgeBaseFactory = (
  options: KnowledgeBaseFactoryOptions,
) => KnowledgeBase | Promise<KnowledgeBase>;

/** A backend's quirks. None of them skips a correctness check. */
export interface KnowledgeBaseSuiteOptions {
  /** Runs after each group (for example, to delete a database file). */
  cleanup?: () => void | Promise<void>;
  /**
   * The backend ranks by meaning only (`capabilities.lexical` false, `semantic` true), e.g. a
   * vector search. Every ranking check still runs: they hold when the backend's embedder puts
   * texts that share words near each other, and texts that share none far apart.
   */
  semanticOnly?: boolean;
}
