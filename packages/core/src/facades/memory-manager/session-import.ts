import type { SessionSnapshot, StoredMessage, SummaryRecord } from '../../store/store-spec.ts';
import { newToolCallId, toMessage } from './entry-mapping.ts';
import { failWith, type ParsedState, parseImportState } from './import-schema.ts';
import type { MemoryEntry } from './memory-entry.ts';
import { conversationOrder } from './session-export.ts';

/** The tool call id of each tool entry: its own, else paired like `addToolResult`, else new. */
function toolCallIds(entries: readonly MemoryEntry[]): Map<string, string> {
  const ids = new Map<string, string>();
  const open = new Map<string, string[]>(); // tool name -> unanswered call ids, oldest first
  const answered = new Set<string>();
  for (const e of entries) {
    if (e.type !== 'tool_call' && e.type !== 'tool_result') continue;
    const own = e.metadata?.toolCallId as string | undefined;
    const name = e.metadata?.toolName as string;
    if (e.type === 'tool_call') {
      const callId = own ?? newToolCallId();
      ids.set(e.id, callId);
      open.set(name, [...(open.get(name) ?? []), callId]);
      continue;
    }
    const pending = (open.get(name) ?? []).filter((c) => !answered.has(c));
    const callId = own ?? pending.at(-1) ?? newToolCallId();
    answered.add(callId);
    ids.set(e.id, callId);
  }
  return ids;
}

/**
 * The store snapshot of an importSession state (validated here). Sequence numbers are rebuilt
 * from the entry order: each non-summary entry takes the next one, a summary the one of the last
 * entry it replaced (as the engine's compaction does), so the session reads back, and exports,
 * exactly as given.
 * @throws MemValidationError naming every bad field.
 */
export function snapshotOfState(input: unknown, now: number): SessionSnapshot {
  const state: ParsedState = parseImportState(input);
  const { entries, summaries, sessionId } = state;
  const byId = new Map(summaries.map((s) => [s.id, s]));
  const callIds = toolCallIds(entries);
  const seqOf = new Map<string, number>();
  let lastSeq = 0;
  const messages: StoredMessage[] = entries.map((e) => {
    const summary = e.type === 'summary' ? byId.get(e.id) : undefined;
    const seq = summary === undefined ? ++lastSeq : seqOf.get(summary.originalEntryIds.at(-1)!)!;
    seqOf.set(e.id, seq);
    const callId = callIds.get(e.id);
    const message = toMessage(e, {
      ...(callId === undefined ? {} : { toolCallId: callId }),
      ...(summary === undefined
        ? {}
        : {
            timeRange: {
              start: summary.timeRange.start.getTime(),
              end: summary.timeRange.end.getTime(),
            },
          }),
    });
    return { ...message, seq };
  });

  const owner = new Map(
    entries.flatMap((e) => (e.summaryId === undefined ? [] : [[e.id, e.summaryId]])),
  );
  const ordered = conversationOrder(messages, owner);
  const moved = ordered.findIndex((m, i) => m.id !== entries[i]!.id);
  if (moved >= 0) {
    failWith([
      {
        path: `entries[${moved}]`,
        message:
          'entries are in conversation order: oldest first, each summary right after the last entry it replaced',
      },
    ]);
  }
  const position = new Map(entries.map((e, i) => [e.id, i]));
  summaries.forEach((s, i) => {
    const previous = summaries[i - 1];
    if (previous !== undefined && position.get(previous.id)! > position.get(s.id)!) {
      failWith([
        {
          path: `summaries[${i}]`,
          message: 'summaries are listed in the order of their summary entries',
        },
      ]);
    }
  });

  const isSummary = new Set(summaries.map((s) => s.id));
  const records: SummaryRecord[] = summaries.map((s) => {
    const previous = s.originalEntryIds.filter((o) => isSummary.has(o)).at(-1);
    return {
      id: s.id,
      originalMessageIds: [...s.originalEntryIds],
      fromSeq: seqOf.get(s.originalEntryIds[0]!)!,
      throughSeq: seqOf.get(s.originalEntryIds.at(-1)!)!,
      originalTokenCount: s.originalTokenCount,
      tokenCount: s.tokenCount,
      compressionRatio: s.compressionRatio,
      timeRange: { start: s.timeRange.start.getTime(), end: s.timeRange.end.getTime() },
      createdAt: s.createdAt.getTime(),
      ...(previous === undefined ? {} : { previousSummaryId: previous }),
    };
  });
  const active = messages.filter((_, i) => !entries[i]!.compressed);
  let first = Number.POSITIVE_INFINITY;
  let last = now;
  for (const e of entries) {
    first = Math.min(first, e.timestamp.getTime());
    last = Math.max(last, e.timestamp.getTime());
  }
  return {
    format: 'mem.session.v1',
    sessionId,
    info: {
      id: sessionId,
      version: entries.length + summaries.length,
      epoch: summaries.length,
      lastSeq,
      messageCount: active.length,
      tokenCount: active.reduce((sum, m) => sum + m.tokenCount, 0),
      createdAt: entries.length === 0 ? now : first,
      updatedAt: last,
    },
    messages: active,
    archived: messages.filter((_, i) => entries[i]!.compressed),
    summaries: records,
    idempotencyKeys: [],
  };
}
