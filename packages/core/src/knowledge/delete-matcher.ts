import type { KnowledgeChunk, KnowledgeDeleteFilter } from './knowledge-base-spec.ts';

/**
 * Which chunks `delete` removes (see `KnowledgeDeleteFilter`), as a test on one chunk: those of
 * the filter's session (when given) and of its user (when given); among them every one when the
 * filter has no id lists, else those whose `messageIds` meet `messageIds` or whose `summaryId` is
 * in `summaryIds` or in `messageIds`. Shared by the backends that match in code; a backend may
 * select by session or user first, the test checks both again.
 */
export function deleteMatcher(
  filter: KnowledgeDeleteFilter,
): (chunk: Pick<KnowledgeChunk, 'metadata'>) => boolean {
  const { sessionId, userId } = filter;
  const inScope = (metadata: KnowledgeChunk['metadata']): boolean =>
    (sessionId === undefined || metadata.sessionId === sessionId) &&
    (userId === undefined || metadata.userId === userId);
  if (filter.messageIds === undefined && filter.summaryIds === undefined) {
    return ({ metadata }) => inScope(metadata);
  }
  const messages = new Set(filter.messageIds);
  const summaries = new Set(filter.summaryIds);
  return ({ metadata }) => {
    if (!inScope(metadata)) return false;
    const { summaryId } = metadata;
    if (summaryId !== undefined && (summaries.has(summaryId) || messages.has(summaryId))) {
      return true;
    }
    return metadata.messageIds.some((id) => messages.has(id));
  };
}
