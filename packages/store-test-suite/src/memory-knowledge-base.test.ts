import { createMemoryKnowledgeBase } from '@mem/core';
import { runKnowledgeBaseTests } from './run-knowledge-base-tests.ts';

// Each in-memory knowledge base holds its own data, so each namespace gets a fresh instance.
runKnowledgeBaseTests('memory', ({ namespace }) => createMemoryKnowledgeBase({ namespace }));
