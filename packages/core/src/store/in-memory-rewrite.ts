import { MemValidationError } from '../errors/errors.ts';
import type { CountedMessage } from '../model/message.ts';
import { type SessionState, sumTokens, touch } from './in-memory-session.ts';
import { indexAfterSeq } from './seq-range.ts';
import type {
  AppendResult,
  CompactInput,
  CompactResult,
  EraseResult,
  FlushResult,
  StoredMessage,
} from './store-spec.ts';

/*
 * The changes that rewrite a session's prefix (and so bump its epoch): compaction, erasure,
 * replace and flush. Like every session function, each throws before changing anything or applies it all.
 */

/**
 * Index just past the active prefix `seq <= throughSeq`, which must hold at least one message and
 * end inside the active log.
 */
export function prefixEnd(s: SessionState, throughSeq: number): number {
  const first = s.active[0];
  const last = s.active[s.active.length - 1];
  if (first === undefined || last === undefined) {
    throw new MemValidationError(
      'throughSeq',
      `[mem/store] session ${JSON.stringify(s.id)} has no active messages; there is nothing to compact or erase.`,
    );
  }
  if (throughSeq < first.seq || throughSeq > last.seq) {
    throw new MemValidationError(
      'throughSeq',
      `[mem/store] throughSeq ${throughSeq} is outside the active messages (seq ${first.seq}..${last.seq}); pass the seq of an active message.`,
    );
  }
  return indexAfterSeq(s.active, throughSeq);
}

/**
 * Replaces the active prefix by the summary (epoch already checked). The record must describe
 * exactly what moves: `originalMessageIds` = the replaced ids in seq order, `fromSeq` = the first
 * replaced seq, `previousSummaryId` = the summary folded in (a replaced message that has a record).
 */
export function compactSession(s: SessionState, input: CompactInput, now: number): CompactResult {
  const end = prefixEnd(s, input.throughSeq);
  const { pinned, rest: replaced } = splitPinned(s.active.slice(0, end), input.keepSeqs);
  const { summary, record } = input;
  if (s.ids.has(summary.id)) {
    throw new MemValidationError(
      'summary.id',
      `[mem/store] summary.id ${JSON.stringify(summary.id)} is already used in session ${JSON.stringify(s.id)}.`,
    );
  }
  const ids = replaced.map((m) => m.id);
  if (
    ids.length !== record.originalMessageIds.length ||
    ids.some((id, i) => id !== record.originalMessageIds[i])
  ) {
    throw recordMismatch('originalMessageIds', JSON.stringify(ids));
  }
  if (record.fromSeq !== replaced[0]?.seq)
    throw recordMismatch('fromSeq', String(replaced[0]?.seq));
  const folded = replaced.filter((m) => s.summaries.has(m.id)).at(-1)?.id;
  if (record.previousSummaryId !== folded) {
    throw recordMismatch(
      'previousSummaryId',
      folded === undefined ? 'absent' : JSON.stringify(folded),
    );
  }
  const stored: StoredMessage = { ...summary, seq: input.throughSeq };
  s.active = [...pinned, stored, ...s.active.slice(end)];
  s.ids.add(summary.id);
  s.archive.set(summary.id, replaced);
  s.summaries.set(record.id, record);
  s.tokenCount += summary.tokenCount - sumTokens(replaced);
  touch(s, now, true);
  return { version: s.version, epoch: s.epoch, summarySeq: stored.seq };
}

/**
 * Deletes the active prefix for good (epoch already checked). An erased summary takes its
 * archived originals and its record with it, recursively: nothing older than `throughSeq` stays.
 */
export function eraseSession(
  s: SessionState,
  throughSeq: number,
  now: number,
  keepSeqs?: readonly number[],
): EraseResult {
  const end = prefixEnd(s, throughSeq);
  const { pinned, rest: erased } = splitPinned(s.active.slice(0, end), keepSeqs);
  s.active = [...pinned, ...s.active.slice(end)];
  for (const message of erased) forget(s, message.id);
  s.tokenCount -= sumTokens(erased);
  touch(s, now, true);
  return { version: s.version, epoch: s.epoch, erasedCount: erased.length };
}

/** Replace: the session becomes exactly `messages` (checked, ids unique), numbered after lastSeq. */
export function replaceSession(
  s: SessionState,
  messages: readonly CountedMessage[],
  now: number,
): AppendResult {
  const firstSeq = s.lastSeq + 1;
  s.active = messages.map((m, i) => ({ ...m, seq: firstSeq + i }));
  s.lastSeq += messages.length;
  s.ids = new Set(messages.map((m) => m.id));
  s.archive = new Map();
  s.summaries = new Map();
  s.tokenCount = sumTokens(messages);
  touch(s, now, true);
  return { version: s.version, epoch: s.epoch, firstSeq, lastSeq: s.lastSeq, duplicate: false };
}

/**
 * Flush (epoch already checked): drops every archive and summary record and frees the ids of the
 * dropped originals; the active messages stay as they are. Changes nothing when there is nothing
 * to drop.
 */
export function flushSession(s: SessionState, now: number): FlushResult {
  let droppedMessages = 0;
  for (const originals of s.archive.values()) {
    droppedMessages += originals.length;
    for (const original of originals) s.ids.delete(original.id);
  }
  const droppedSummaries = s.summaries.size;
  if (droppedMessages === 0 && droppedSummaries === 0) {
    return { version: s.version, epoch: s.epoch, droppedMessages, droppedSummaries };
  }
  s.archive = new Map();
  s.summaries = new Map();
  touch(s, now, true);
  return { version: s.version, epoch: s.epoch, droppedMessages, droppedSummaries };
}

/** Splits a prefix into the pinned messages (which stay active) and the rest. */
function splitPinned(
  prefix: readonly StoredMessage[],
  keepSeqs: readonly number[] | undefined,
): { pinned: StoredMessage[]; rest: StoredMessage[] } {
  if (keepSeqs === undefined || keepSeqs.length === 0) return { pinned: [], rest: [...prefix] };
  const keep = new Set(keepSeqs);
  const pinned: StoredMessage[] = [];
  const rest: StoredMessage[] = [];
  for (const m of prefix) (keep.has(m.seq) ? pinned : rest).push(m);
  return { pinned, rest };
}

function forget(s: SessionState, id: string): void {
  s.ids.delete(id);
  const originals = s.archive.get(id);
  if (originals === undefined) return;
  s.archive.delete(id);
  s.summaries.delete(id);
  for (const original of originals) forget(s, original.id);
}

function recordMismatch(field: string, expected: string): MemValidationError {
  return new MemValidationError(
    `record.${field}`,
    `[mem/store] record.${field} does not describe the messages this compaction replaces; expected ${expected}.`,
  );
}
