import type { IndexedChunk } from './bm25-index.ts';
import type { KnowledgeDeleteFilter } from './knowledge-base-spec.ts';

/** Which entries of the filter's session `delete` removes (see `KnowledgeDeleteFilter`). */
export function deleteMatcher(filter: KnowledgeDeleteFilter): (entry: IndexedChunk) => boolean {
  if (filter.messageIds === undefined && filter.summaryIds === undefined) return () => true;
  const messages = new Set(filter.messageIds);
  const summaries = new Set(filter.summaryIds);
  return ({ chunk: { metadata } }) => {
    const { summaryId } = metadata;
    if (summaryId !== undefined && (summaries.has(summaryId) || messages.has(summaryId))) {
      return true;
    }
    return metadata.messageIds.some((id) => messages.has(id));
  };
}
