import type { KnowledgeChunk, KnowledgeDeleteFilter } from './knowledge-base-spec.ts';

/**
 * Which chunks of the filter's session `delete` removes (see `KnowledgeDeleteFilter`): every
 * chunk without ids in the filter, else those whose `messageIds` meet `messageIds` or whose
 * `summaryId` is in `summaryIds` or in `messageIds`. Shared by the backends that match in code.
 */
export function deleteMatcher(
  filter: KnowledgeDeleteFilter,
): (chunk: Pick<KnowledgeChunk, 'metadata'>) => boolean {
  if (filter.messageIds === undefined && filter.summaryIds === undefined) return () => true;
  const messages = new Set(filter.messageIds);
  const summaries = new Set(filter.summaryIds);
  return ({ metadata }) => {
    const { summaryId } = metadata;
    if (summaryId !== undefined && (summaries.has(summaryId) || messages.has(summaryId))) {
      return true;
    }
    return metadata.messageIds.some((id) => messages.has(id));
  };
}
