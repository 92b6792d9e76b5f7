import type { KnowledgeChunk } from '../knowledge-base-spec.ts';

/** A chunk of session `s1` (override anything through `metadata`). */
export function chunk(
  id: string,
  text: string,
  metadata: Partial<KnowledgeChunk['metadata']> = {},
): KnowledgeChunk {
  return {
    id,
    text,
    tokenCount: text.split(' ').length,
    metadata: { sessionId: 's1', kind: 'summary', messageIds: [], createdAt: 1, ...metadata },
  };
}
