import { isSummaryMessage, type Message } from '../model/message.ts';
import { renderTranscript } from '../summarize/render-transcript.ts';
import type { KnowledgeChunk, KnowledgeChunkMetadata } from './knowledge-base-spec.ts';
import { type SplitTextOptions, splitTextSpans } from './text-splitter.ts';

/** A summary to index. */
export interface SummaryIndexSource {
  kind: 'summary';
  sessionId: string;
  /** Id of the summary message; chunk ids are `${summaryId}:${index}`. */
  summaryId: string;
  /** The summary's text (without any header the engine adds for the LLM). */
  text: string;
  createdAt: number;
  /** Messages the summary stands for. Default `[summaryId]`: deleting the summary removes it. */
  messageIds?: string[];
  /** Time range the summary covers (ms since the epoch). */
  start?: number;
  end?: number;
}

/** Archived messages (one interaction, usually) to index as a transcript. */
export interface ArchiveIndexSource {
  kind: 'archive';
  sessionId: string;
  /** The summary that replaced these messages, if any. */
  summaryId?: string;
  /** Oldest first. Summary messages among them are skipped: they are indexed as summaries. */
  messages: readonly Message[];
}

export type IndexSource = SummaryIndexSource | ArchiveIndexSource;

/**
 * Cuts a summary, or the transcript of archived messages (`renderTranscript`: `User: ...`,
 * `→ tool(args)`, `← tool: result`), into `KnowledgeChunk`s ready for `KnowledgeBase.add`.
 *
 * Ids are deterministic, so indexing the same source again replaces its chunks: a summary's
 * chunks are `${summaryId}:${i}`, an archive's `${firstMessageId}:${i}` (the first message that
 * is not a summary, so the two never collide). Every chunk of a source carries the same
 * metadata: the archive's message ids, time range and the createdAt of its first message,
 * or the summary's. `tokenCount` is `counter.countText(chunk)`. An empty source gives no chunks.
 */
export function chunkForIndex(source: IndexSource, options: SplitTextOptions): KnowledgeChunk[] {
  const prepared = source.kind === 'summary' ? fromSummary(source) : fromArchive(source);
  if (prepared === undefined) return [];
  const { idBase, text, metadata } = prepared;
  return splitTextSpans(text, options).map((span, i) => ({
    id: `${idBase}:${i}`,
    text: span.text,
    tokenCount: span.tokenCount,
    metadata: { ...metadata, messageIds: [...metadata.messageIds] },
  }));
}

interface Prepared {
  idBase: string;
  text: string;
  metadata: KnowledgeChunkMetadata;
}

function fromSummary(source: SummaryIndexSource): Prepared {
  const metadata: KnowledgeChunkMetadata = {
    sessionId: source.sessionId,
    kind: 'summary',
    summaryId: source.summaryId,
    messageIds: [...(source.messageIds ?? [source.summaryId])],
    createdAt: source.createdAt,
  };
  if (source.start !== undefined) metadata.start = source.start;
  if (source.end !== undefined) metadata.end = source.end;
  return { idBase: source.summaryId, text: source.text, metadata };
}

function fromArchive(source: ArchiveIndexSource): Prepared | undefined {
  const messages = source.messages.filter((m) => !isSummaryMessage(m));
  const first = messages[0];
  if (first === undefined) return undefined;
  let start = first.createdAt;
  let end = first.createdAt;
  for (const m of messages) {
    start = Math.min(start, m.createdAt);
    end = Math.max(end, m.createdAt);
  }
  const metadata: KnowledgeChunkMetadata = {
    sessionId: source.sessionId,
    kind: 'archive',
    messageIds: messages.map((m) => m.id),
    createdAt: first.createdAt,
    start,
    end,
  };
  if (source.summaryId !== undefined) metadata.summaryId = source.summaryId;
  return { idBase: first.id, text: renderTranscript(messages), metadata };
}
