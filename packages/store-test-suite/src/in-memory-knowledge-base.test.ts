import { createInMemoryKnowledgeBase } from '@mem/core';
import { createWordVectorEmbedder } from '@mem/core/testing';
import { runKnowledgeBaseTests } from './run-knowledge-base-tests.ts';

// Each in-memory knowledge base holds its own data, so each namespace gets a fresh instance.
runKnowledgeBaseTests('memory', (options) => createInMemoryKnowledgeBase(options));

const embedder = createWordVectorEmbedder();
for (const retrieval of ['hybrid', 'semantic'] as const) {
  runKnowledgeBaseTests(
    `memory, ${retrieval} with an embedder`,
    (options) => createInMemoryKnowledgeBase({ embedder, retrieval, ...options }),
    { semanticOnly: retrieval === 'semantic' },
  );
}
