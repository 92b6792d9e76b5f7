import { type ConfigIssue, MemConfigError } from '../errors/errors.ts';
import { MemError } from '../errors/mem-error.ts';
import { assertValidNamespace } from '../store/validate-ids.ts';
import {
  type CheckedRetrievalOptions,
  checkRetrievalOptions,
  type RetrievalOptions,
} from './retrieval-options.ts';

export interface MemoryKnowledgeBaseOptions extends RetrievalOptions {
  /** The tenant this knowledge base is bound to: 1-64 letters, digits, `_` or `-`. Default `'default'`. */
  namespace?: string;
}

/** Options with defaults applied. @throws MemConfigError listing every bad option. */
export function checkMemoryKnowledgeBaseOptions(
  options: MemoryKnowledgeBaseOptions,
): CheckedRetrievalOptions & { namespace: string } {
  const issues: ConfigIssue[] = [];
  const namespace = options.namespace ?? 'default';
  try {
    assertValidNamespace(namespace);
  } catch (error) {
    if (!MemError.isInstance(error)) throw error;
    issues.push({
      path: 'namespace',
      message: 'use 1-64 letters, digits, "_" or "-", starting with a letter or digit',
    });
  }
  const retrieval = checkRetrievalOptions(options, issues);
  if (issues.length > 0) {
    throw new MemConfigError(issues, { source: 'createMemoryKnowledgeBase options' });
  }
  return { ...retrieval, namespace };
}
