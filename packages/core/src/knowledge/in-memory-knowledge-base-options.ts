import { type ConfigIssue, MemConfigError } from '../errors/errors.ts';
import { namespaceOption } from '../store/validate-ids.ts';
import {
  type CheckedRetrievalOptions,
  checkRetrievalOptions,
  type RetrievalOptions,
} from './retrieval-options.ts';

export interface InMemoryKnowledgeBaseOptions extends RetrievalOptions {
  /** The tenant this knowledge base is bound to: 1-64 letters, digits, `_` or `-`. Default `'default'`. */
  namespace?: string;
}

/** Options with defaults applied. @throws MemConfigError listing every bad option. */
export function checkMemoryKnowledgeBaseOptions(
  options: InMemoryKnowledgeBaseOptions,
): CheckedRetrievalOptions & { namespace: string } {
  const issues: ConfigIssue[] = [];
  const namespace = namespaceOption(options.namespace, issues);
  const retrieval = checkRetrievalOptions(options, issues);
  if (issues.length > 0) {
    throw new MemConfigError(issues, { source: 'createInMemoryKnowledgeBase options' });
  }
  return { ...retrieval, namespace };
}
