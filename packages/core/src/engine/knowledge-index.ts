import type { SummarizerStrategyConfig } from '../config/profile-schema.ts';
import type { KnowledgeChunk, KnowledgeHit } from '../knowledge/knowledge-base-spec.ts';
import { splitTextSpans } from '../knowledge/text-splitter.ts';
import { groupInteractions } from '../model/interaction-log.ts';
import { type CountedMessage, isSummaryMessage, messageText } from '../model/message.ts';
import { renderTranscript } from '../summarize/render-transcript.ts';
import { summaryBody } from './compact-session.ts';
import type { EngineContext } from './engine-context.ts';

/**
 * Indexes a compaction: the summary and each archived interaction, cut by the profile's
 * `text_splitter`, tagged with the session, the summary and the message ids they came from.
 */
export async function indexCompaction(
  ctx: EngineContext,
  sessionId: string,
  config: SummarizerStrategyConfig,
  summary: CountedMessage,
  replaced: readonly CountedMessage[],
): Promise<void> {
  const kb = ctx.knowledgeBase;
  const target = config.knowledge_base;
  if (kb === undefined || target === null) return;
  const split = (text: string) =>
    splitTextSpans(text, {
      chunkSize: config.text_splitter.chunk_size,
      chunkOverlap: config.text_splitter.chunk_overlap,
      counter: ctx.counter,
    });
  const chunks: KnowledgeChunk[] = [];
  const add = (idBase: string, text: string, metadata: KnowledgeChunk['metadata']) => {
    // The splitter already counted each chunk: no second tokenization.
    split(text).forEach((span, i) => {
      chunks.push({ id: `${idBase}:${i}`, text: span.text, tokenCount: span.tokenCount, metadata });
    });
  };
  add(summary.id, summaryBody(summary), {
    sessionId,
    kind: 'summary',
    summaryId: summary.id,
    messageIds: [summary.id],
    createdAt: summary.createdAt,
  });
  const originals = replaced.filter((m) => !isSummaryMessage(m));
  for (const interaction of groupInteractions(originals).interactions) {
    const first = interaction.messages[0]!;
    const last = interaction.messages.at(-1)!;
    add(first.id, renderTranscript(interaction.messages), {
      sessionId,
      kind: 'archive',
      summaryId: summary.id,
      messageIds: interaction.messages.map((m) => m.id),
      createdAt: first.createdAt,
      start: first.createdAt,
      end: last.createdAt,
    });
  }
  await kb.add(target.collection_id, chunks);
  ctx.events.emit('knowledge:indexed', {
    sessionId,
    collectionId: target.collection_id,
    chunks: chunks.length,
  });
}

/** Removes erased content from every collection the profile indexes into. */
export async function forgetInKnowledgeBase(
  ctx: EngineContext,
  sessionId: string,
  collections: readonly string[],
  filter: { messageIds?: string[]; summaryIds?: string[] },
): Promise<void> {
  const kb = ctx.knowledgeBase;
  if (kb === undefined) return;
  for (const collectionId of collections) await kb.delete(collectionId, { sessionId, ...filter });
}

/** The `top_k` chunks most relevant to the newest user message, for `search_mode: "always"`. */
export async function searchKnowledge(
  ctx: EngineContext,
  sessionId: string,
  query: CountedMessage | undefined,
): Promise<{ collectionId: string; hits: KnowledgeHit[] }[]> {
  const kb = ctx.knowledgeBase;
  if (kb === undefined || query === undefined) return [];
  const text = messageText(query);
  const out: { collectionId: string; hits: KnowledgeHit[] }[] = [];
  for (const { config } of ctx.profile.longTerm) {
    if (config.long_term_memory_id !== 'summarizer') continue;
    const target = config.knowledge_base;
    if (target === null || target.search_mode !== 'always') continue;
    const hits = await kb.search(target.collection_id, text, { topK: target.top_k, sessionId });
    out.push({ collectionId: target.collection_id, hits });
  }
  return out;
}
