import type { KnowledgeBase, KnowledgeChunk, KnowledgeSearchOptions } from '@mem/core/backend';

/** The collection most knowledge-base tests write to. */
export const TEST_COLLECTION = 'session-memory';

/** A chunk of session `s1` (override anything through `metadata`). */
export function knowledgeChunk(
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

/** Five chunks of session `s1` about unrelated topics; each query in the suite targets one. */
export const KNOWLEDGE_CORPUS: readonly KnowledgeChunk[] = [
  knowledgeChunk(
    'weather:0',
    'User asked about the weather in Lisbon; it will be sunny and 24 degrees.',
  ),
  knowledgeChunk(
    'billing:0',
    'Invoice 20931 was paid twice. The assistant opened refund ticket AF-1042.',
    { messageIds: ['m3', 'm4'] },
  ),
  knowledgeChunk(
    'deploy:0',
    'The deploy of the payments service failed; rollback to version 3.2 done.',
    { messageIds: ['m5'] },
  ),
  knowledgeChunk('lunch:0', "Alice's favourite lunch place is the ramen bar near the office.", {
    messageIds: ['m6'],
  }),
  knowledgeChunk('travel:0', 'Booked a train to Porto for Friday morning, seat 42, coach 7.', {
    kind: 'archive',
    summaryId: 'sum1',
    messageIds: ['m7', 'm8'],
  }),
];

/** Ids of the hits of `query` in `collectionId` (default `TEST_COLLECTION`), best first. */
export async function searchIds(
  kb: KnowledgeBase,
  query: string,
  options: { topK?: number; sessionId?: string; userId?: string; collectionId?: string } = {},
): Promise<string[]> {
  const { topK = 5, sessionId, userId, collectionId = TEST_COLLECTION } = options;
  const search: KnowledgeSearchOptions = { topK };
  if (sessionId !== undefined) search.sessionId = sessionId;
  if (userId !== undefined) search.userId = userId;
  return (await kb.search(collectionId, query, search)).map((hit) => hit.chunk.id);
}
