import { createInMemoryBackend, createInMemoryKnowledgeBase, createInMemoryStore } from '@mem/core';
import { runEngineTests } from './run-engine-tests.ts';

// A place is one InMemoryBackend; an in-memory knowledge base holds its own data, so every open
// of a place returns the same one.
runEngineTests('the in-memory store', () => {
  const backend = createInMemoryBackend();
  const knowledgeBase = createInMemoryKnowledgeBase();
  return {
    store: (options) => createInMemoryStore({ backend, ...options }),
    knowledgeBase: () => knowledgeBase,
  };
});
