import { MemValidationError } from '@mem/core';
import type { CompactInput, StoredMessage, SummaryRecord } from '@mem/core/backend';
import { decodeRecords, decodeScored } from './decode-stored.ts';
import { idKey } from './encode-stored.ts';

/** What the prepare script read, at one epoch: the prefix cannot change without a new epoch. */
export interface PreparedPrefix {
  live: boolean;
  epoch: number;
  summaryIdUsed: boolean;
  firstSeq: number | undefined;
  lastSeq: number | undefined;
  /** Active members with seq <= throughSeq, in seq order, as stored. */
  members: string[];
  messages: StoredMessage[];
  /** Id keys (`idKey`) of the summaries that have a record. */
  recordIds: Set<string>;
  /** Id key -> record, only when the prepare script was asked for them (erase). */
  records: Map<string, SummaryRecord>;
}

export function decodePrepared(reply: unknown): PreparedPrefix {
  const [head, prefix, recordIds, flat] = reply as [unknown[], string[], string[], string[]];
  const members: string[] = [];
  for (let i = 0; i < prefix.length; i += 2) members.push(prefix[i] as string);
  const records = new Map<string, SummaryRecord>();
  for (let i = 0; i + 1 < flat.length; i += 2) {
    const [record] = decodeRecords([flat[i + 1]]);
    if (record !== undefined) records.set(String(flat[i]), record);
  }
  const [state, epoch, used, first, last] = head.map(String);
  return {
    live: state === 'live',
    epoch: Number(epoch),
    summaryIdUsed: used === '1',
    firstSeq: first === '' || first === undefined ? undefined : Number(first),
    lastSeq: last === '' || last === undefined ? undefined : Number(last),
    members,
    messages: decodeScored(prefix),
    recordIds: new Set(recordIds),
    records,
  };
}

export function noActiveMessages(sessionId: string): MemValidationError {
  return new MemValidationError(
    'throughSeq',
    `[mem/store] session ${JSON.stringify(sessionId)} has no active messages; there is nothing to compact or erase.`,
  );
}

/** The prefix split into pinned (stays) and the rest, after the range checks of the spec. */
export function splitPrefix(
  sessionId: string,
  prepared: PreparedPrefix,
  throughSeq: number,
  keepSeqs: readonly number[] | undefined,
): { rest: number[]; pinned: number[] } {
  const { firstSeq, lastSeq } = prepared;
  if (!prepared.live || firstSeq === undefined || lastSeq === undefined) {
    throw noActiveMessages(sessionId);
  }
  if (throughSeq < firstSeq || throughSeq > lastSeq) {
    throw new MemValidationError(
      'throughSeq',
      `[mem/store] throughSeq ${throughSeq} is outside the active messages (seq ${firstSeq}..${lastSeq}); pass the seq of an active message.`,
    );
  }
  const keep = new Set(keepSeqs ?? []);
  const rest: number[] = [];
  const pinned: number[] = [];
  prepared.messages.forEach((m, i) => {
    (keep.has(m.seq) ? pinned : rest).push(i);
  });
  return { rest, pinned };
}

/** Checks a compaction against the prefix exactly as the in-memory store does. */
export function checkCompaction(
  sessionId: string,
  prepared: PreparedPrefix,
  input: CompactInput,
  replaced: readonly StoredMessage[],
): void {
  const { summary, record } = input;
  if (prepared.summaryIdUsed) throw summaryIdUsed(sessionId, summary.id);
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
  const folded = replaced.filter((m) => prepared.recordIds.has(idKey(m.id))).at(-1)?.id;
  if (record.previousSummaryId !== folded) {
    throw recordMismatch(
      'previousSummaryId',
      folded === undefined ? 'absent' : JSON.stringify(folded),
    );
  }
}

export function summaryIdUsed(sessionId: string, id: string): MemValidationError {
  return new MemValidationError(
    'summary.id',
    `[mem/store] summary.id ${JSON.stringify(id)} is already used in session ${JSON.stringify(sessionId)}.`,
  );
}

function recordMismatch(field: string, expected: string): MemValidationError {
  return new MemValidationError(
    `record.${field}`,
    `[mem/store] record.${field} does not describe the messages this compaction replaces; expected ${expected}.`,
  );
}

/**
 * What an erase forgets: the id keys of the erased messages and, for an erased summary, of its
 * originals, recursively; and the id keys of the erased summaries (records and archives).
 */
export function forgetClosure(
  erased: readonly StoredMessage[],
  records: ReadonlyMap<string, SummaryRecord>,
): { ids: string[]; summaries: string[] } {
  const ids = new Set<string>();
  const summaries = new Set<string>();
  const stack = erased.map((m) => m.id);
  for (let id = stack.pop(); id !== undefined; id = stack.pop()) {
    const key = idKey(id);
    ids.add(key);
    const record = records.get(key);
    if (record !== undefined && !summaries.has(key)) {
      summaries.add(key);
      stack.push(...record.originalMessageIds);
    }
  }
  return { ids: [...ids], summaries: [...summaries] };
}
