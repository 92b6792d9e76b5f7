import { summaryBody } from '../../model/summary-message.ts';
import type { SessionSnapshot, StoredMessage, SummaryRecord } from '../../store/store-spec.ts';
import { toEntry } from './entry-mapping.ts';
import type { MemorySessionState, MemoryStats, MemorySummary } from './memory-entry.ts';

/**
 * Conversation order of every message of a session, archived ones included: by `seq`, and on a
 * tie (a summary takes the seq of the last message it replaced) the replaced message first.
 * `owner` maps a message id to the summary that replaced it.
 */
export function conversationOrder<M extends { id: string; seq: number }>(
  messages: readonly M[],
  owner: ReadonlyMap<string, string>,
): M[] {
  const depth = (id: string): number => {
    let d = 0;
    for (let at = owner.get(id); at !== undefined && d <= owner.size; at = owner.get(at)) d++;
    return d;
  };
  return messages
    .map((m) => ({ m, depth: depth(m.id) }))
    .sort((a, b) => a.m.seq - b.m.seq || b.depth - a.depth)
    .map((x) => x.m);
}

/** Maps each replaced message id to the summary that replaced it. */
export function ownersOf(records: readonly SummaryRecord[]): Map<string, string> {
  const owner = new Map<string, string>();
  for (const r of records) for (const id of r.originalMessageIds) owner.set(id, r.id);
  return owner;
}

function toSummary(record: SummaryRecord, message: StoredMessage | undefined): MemorySummary {
  return {
    id: record.id,
    content: message === undefined ? '' : summaryBody(message),
    originalEntryIds: [...record.originalMessageIds],
    tokenCount: record.tokenCount,
    originalTokenCount: record.originalTokenCount,
    compressionRatio: record.compressionRatio,
    createdAt: new Date(record.createdAt),
    timeRange: { start: new Date(record.timeRange.start), end: new Date(record.timeRange.end) },
  };
}

/** The MemorySummary of a record, given the session's messages. */
export function summaryOf(
  record: SummaryRecord,
  messages: readonly StoredMessage[],
): MemorySummary {
  return toSummary(
    record,
    messages.find((m) => m.id === record.id),
  );
}

/** A session's state as `exportSession` returns it (empty when the store has no such session). */
export function stateOfSnapshot(
  sessionId: string,
  snapshot: SessionSnapshot | null,
): MemorySessionState {
  if (snapshot === null) return { sessionId, entries: [], summaries: [], totalTokens: 0 };
  const owner = ownersOf(snapshot.summaries);
  const ordered = conversationOrder([...snapshot.messages, ...snapshot.archived], owner);
  const entries = ordered.map((m) => toEntry(m, owner.get(m.id)));
  const position = new Map(ordered.map((m, i) => [m.id, i]));
  const byId = new Map(ordered.map((m) => [m.id, m]));
  const summaries = [...snapshot.summaries]
    .sort((a, b) => (position.get(a.id) ?? 0) - (position.get(b.id) ?? 0))
    .map((r) => toSummary(r, byId.get(r.id)));
  const totalTokens = entries.reduce((sum, e) => sum + e.tokenCount, 0);
  return { sessionId, entries, summaries, totalTokens };
}

/** Usage figures of an exported state. */
export function statsOf(state: MemorySessionState): MemoryStats {
  let activeEntries = 0;
  let activeTokens = 0;
  for (const e of state.entries) {
    if (e.compressed) continue;
    activeEntries++;
    activeTokens += e.tokenCount;
  }
  return {
    totalEntries: state.entries.length,
    activeEntries,
    compressedEntries: state.entries.length - activeEntries,
    summaries: state.summaries.length,
    totalTokens: state.totalTokens,
    activeTokens,
  };
}
