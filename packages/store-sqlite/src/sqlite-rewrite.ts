import { MemValidationError } from '@mem/core';
import type {
  AppendResult,
  CompactInput,
  CompactResult,
  CountedMessage,
  EraseResult,
  FlushResult,
  PopResult,
} from '@mem/core/backend';
import { storedOf } from './decode-rows.ts';
import { idUsed, insertMessage, messageRowOf, type SessionHead, touch } from './sqlite-session.ts';
import type { MessageRow, SessionRef, Statements } from './statements.ts';

const NO_UPPER_BOUND = Number.MAX_SAFE_INTEGER;

/*
 * The changes that rewrite a session's prefix (and so bump its epoch): compaction, erasure,
 * replace and flush. Each runs inside the operation's transaction: a throw rolls everything back.
 */

/** The active prefix `seq <= throughSeq`, which must hold a message and end inside the log. */
function activePrefix(
  st: Statements,
  ref: SessionRef,
  head: SessionHead,
  throughSeq: number,
): MessageRow[] {
  const bounds = head.live ? st.seqBounds.get(ref.id) : undefined;
  const first = bounds?.first ?? null;
  const last = bounds?.last ?? null;
  if (first === null || last === null) {
    throw new MemValidationError(
      'throughSeq',
      `[mem/store] session ${JSON.stringify(ref.sid)} has no active messages; there is nothing to compact or erase.`,
    );
  }
  if (throughSeq < first || throughSeq > last) {
    throw new MemValidationError(
      'throughSeq',
      `[mem/store] throughSeq ${throughSeq} is outside the active messages (seq ${first}..${last}); pass the seq of an active message.`,
    );
  }
  return st.readAscending.all({ s: ref.id, after: 0, before: throughSeq + 1, limit: -1 });
}

/** Replaces the active prefix by the summary (epoch already checked); see the memory store. */
export function compactSession(
  st: Statements,
  ref: SessionRef,
  head: SessionHead,
  input: CompactInput,
  at: number,
): CompactResult {
  const prefix = activePrefix(st, ref, head, input.throughSeq);
  const { rest: replaced } = splitPinned(prefix, input.keepSeqs);
  const { summary, record } = input;
  if (idUsed(st, ref, summary.id)) {
    throw new MemValidationError(
      'summary.id',
      `[mem/store] summary.id ${JSON.stringify(summary.id)} is already used in session ${JSON.stringify(ref.sid)}.`,
    );
  }
  const ids = replaced.map((m) => m.id);
  if (
    ids.length !== record.originalMessageIds.length ||
    ids.some((id, i) => id !== record.originalMessageIds[i])
  ) {
    throw recordMismatch('originalMessageIds', JSON.stringify(ids));
  }
  if (record.fromSeq !== replaced[0]?.seq) {
    throw recordMismatch('fromSeq', String(replaced[0]?.seq));
  }
  const folded = replaced
    .filter((m) => st.hasSummary.get({ s: ref.id, summaryId: m.id })?.found === 1)
    .at(-1)?.id;
  if (record.previousSummaryId !== folded) {
    throw recordMismatch(
      'previousSummaryId',
      folded === undefined ? 'absent' : JSON.stringify(folded),
    );
  }
  let replacedTokens = 0;
  for (const m of replaced) {
    st.deleteMessage.run(ref.id, m.seq);
    st.insertArchived.run({ s: ref.id, summaryId: summary.id, seq: m.seq, id: m.id, json: m.json });
    replacedTokens += m.token_count;
  }
  insertMessage(st, ref, messageRowOf(summary as CountedMessage, input.throughSeq));
  st.insertSummary.run({ s: ref.id, summaryId: record.id, json: JSON.stringify(record) });
  head.messageCount += 1 - replaced.length;
  head.tokenCount += summary.tokenCount - replacedTokens;
  touch(head, at, true);
  return { version: head.version, epoch: head.epoch, summarySeq: input.throughSeq };
}

/**
 * Deletes the active prefix for good (epoch already checked). An erased summary takes its
 * archived originals and its record with it, recursively: nothing older than `throughSeq` stays.
 */
export function eraseSession(
  st: Statements,
  ref: SessionRef,
  head: SessionHead,
  throughSeq: number,
  at: number,
  keepSeqs?: readonly number[],
): EraseResult {
  const prefix = activePrefix(st, ref, head, throughSeq);
  const { rest: erased } = splitPinned(prefix, keepSeqs);
  let erasedTokens = 0;
  for (const m of erased) {
    st.deleteMessage.run(ref.id, m.seq);
    forget(st, ref, m.id);
    erasedTokens += m.token_count;
  }
  head.messageCount -= erased.length;
  head.tokenCount -= erasedTokens;
  touch(head, at, true);
  return { version: head.version, epoch: head.epoch, erasedCount: erased.length };
}

/**
 * Removes the newest active message for good unless it is a summary (see the spec's `pop`); the
 * caller saves the head when a message was removed. Runs inside the operation's transaction.
 */
export function popNewest(
  st: Statements,
  ref: SessionRef,
  head: SessionHead,
  at: number,
): PopResult {
  const newest = st.readDescending.get({ s: ref.id, after: 0, before: NO_UPPER_BOUND, limit: 1 });
  if (newest === undefined || st.hasSummary.get({ s: ref.id, summaryId: newest.id })?.found === 1) {
    return { version: head.version, epoch: head.epoch, message: null };
  }
  st.deleteMessage.run(ref.id, newest.seq);
  head.messageCount -= 1;
  head.tokenCount -= newest.token_count;
  touch(head, at, true);
  return { version: head.version, epoch: head.epoch, message: storedOf(newest, ref.sid) };
}

/** Replace: the session becomes exactly `messages` (checked, ids unique), numbered after lastSeq. */
export function replaceSession(
  st: Statements,
  ref: SessionRef,
  head: SessionHead,
  messages: readonly CountedMessage[],
  at: number,
): AppendResult {
  const firstSeq = head.lastSeq + 1;
  st.deleteHistory.run(ref.id);
  let tokens = 0;
  messages.forEach((m, i) => {
    insertMessage(st, ref, messageRowOf(m, firstSeq + i));
    tokens += m.tokenCount;
  });
  head.lastSeq += messages.length;
  head.messageCount = messages.length;
  head.tokenCount = tokens;
  touch(head, at, true);
  const { version, epoch, lastSeq } = head;
  return { version, epoch, firstSeq, lastSeq, duplicate: false };
}

/**
 * Flush (epoch already checked): deletes every archived row and summary record of the session,
 * which frees the archived ids (ids in use are those of active and archived rows); the active
 * rows stay. Bumps the counters only when something was deleted; the caller then saves the head.
 */
export function flushSession(
  st: Statements,
  ref: SessionRef,
  head: SessionHead,
  at: number,
): FlushResult {
  const droppedMessages = st.deleteWholeArchive.run(ref.id).changes;
  const droppedSummaries = st.deleteAllSummaries.run(ref.id).changes;
  if (droppedMessages + droppedSummaries > 0) touch(head, at, true);
  return { version: head.version, epoch: head.epoch, droppedMessages, droppedSummaries };
}

/** Splits a prefix into the pinned messages (which stay active) and the rest. */
function splitPinned(
  prefix: readonly MessageRow[],
  keepSeqs: readonly number[] | undefined,
): { pinned: MessageRow[]; rest: MessageRow[] } {
  if (keepSeqs === undefined || keepSeqs.length === 0) return { pinned: [], rest: [...prefix] };
  const keep = new Set(keepSeqs);
  const pinned: MessageRow[] = [];
  const rest: MessageRow[] = [];
  for (const m of prefix) (keep.has(m.seq) ? pinned : rest).push(m);
  return { pinned, rest };
}

/** Drops a summary's record and archived originals, and theirs in turn. */
function forget(st: Statements, ref: SessionRef, id: string): void {
  if (st.hasSummary.get({ s: ref.id, summaryId: id })?.found !== 1) return;
  const originals = st.archived.all({ s: ref.id, summaryId: id });
  st.deleteArchived.run({ s: ref.id, summaryId: id });
  st.deleteSummary.run({ s: ref.id, summaryId: id });
  for (const original of originals) forget(st, ref, original.id);
}

function recordMismatch(field: string, expected: string): MemValidationError {
  return new MemValidationError(
    `record.${field}`,
    `[mem/store] record.${field} does not describe the messages this compaction replaces; expected ${expected}.`,
  );
}
