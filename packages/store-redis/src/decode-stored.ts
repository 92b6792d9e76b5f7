import { MemStoreError } from '@mem/core';
import {
  type AppendResult,
  isStoredMessageShape,
  isSummaryRecordShape,
  parseSessionSnapshot,
  type SessionInfo,
  type SessionSnapshot,
  type StoredMessage,
  type SummaryRecord,
  sessionIdProblem,
} from '@mem/core/backend';

/*
 * Data read back from Redis is checked at this boundary with core's parsers; anything that does
 * not parse is reported as corrupt (MemStoreError), never returned.
 */

function corrupt(what: string, cause?: unknown): MemStoreError {
  return new MemStoreError(
    `[mem/redis] ${what} read back from Redis is corrupt; restore the session from an export or clear it.`,
    cause === undefined ? {} : { cause },
  );
}

/** A parsed member with its seq, as core's read-back shape check and a positive seq allow. */
function isStoredMessage(value: unknown): value is StoredMessage {
  if (!isStoredMessageShape(value)) return false;
  const { seq } = value as { seq?: unknown };
  return Number.isSafeInteger(seq) && (seq as number) >= 1;
}

/**
 * Active members as ZRANGE ... WITHSCORES returns them to messages, in that order (`reverse`: in
 * the opposite order); the seq becomes the last field. Takes the flat RESP2 form (member, seq,
 * member, seq, ...: scripts) and the pair form of RESP3 ([member, seq], ...: direct commands).
 */
export function decodeScored(reply: readonly unknown[], reverse = false): StoredMessage[] {
  const pairs = reply.length > 0 && Array.isArray(reply[0]);
  const n = pairs ? reply.length : reply.length >> 1;
  const out = new Array<StoredMessage>(n);
  for (let i = 0; i < n; i++) {
    const [member, score] = pairs ? (reply[i] as unknown[]) : [reply[2 * i], reply[2 * i + 1]];
    const message = parse(member, 'a message');
    if (typeof message === 'object' && message !== null) {
      (message as { seq: unknown }).seq = Number(score);
    }
    out[reverse ? n - 1 - i : i] = check(message, 'a message');
  }
  return out;
}

/** The archive of a summary (a JSON array of archived messages) to messages. */
export function decodeArchive(text: string): StoredMessage[] {
  const list = parse(text, 'an archive');
  if (!Array.isArray(list)) throw corrupt('an archive');
  return list.map((m) => check(m, 'an archived message'));
}

function parse(text: unknown, what: string): unknown {
  if (typeof text !== 'string') throw corrupt(what);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw corrupt(what, error);
  }
}

function check(value: unknown, what: string): StoredMessage {
  if (!isStoredMessage(value)) throw corrupt(what);
  return value;
}

/** `version:epoch:firstSeq:lastSeq` as the scripts write it. */
export function decodeAppendRecord(text: unknown, duplicate: boolean): AppendResult {
  const parts = typeof text === 'string' ? text.split(':').map(Number) : [];
  const [version, epoch, firstSeq, lastSeq] = parts;
  if (
    parts.length !== 4 ||
    version === undefined ||
    epoch === undefined ||
    firstSeq === undefined ||
    lastSeq === undefined ||
    !parts.every(Number.isSafeInteger)
  ) {
    throw corrupt('an idempotency record');
  }
  return { version, epoch, firstSeq, lastSeq, duplicate };
}

export function decodeRecords(texts: readonly unknown[]): SummaryRecord[] {
  return texts.map((text) => {
    const record = parse(text, 'a summary record');
    if (!isSummaryRecordShape(record)) throw corrupt('a summary record');
    return record;
  });
}

/** The fields of the meta hash that make up SessionInfo, in the order `decodeInfoFields` takes. */
export const INFO_FIELDS = [
  'state',
  'version',
  'epoch',
  'lastSeq',
  'count',
  'tokens',
  'createdAt',
  'updatedAt',
  'user',
] as const;

/** HMGET of INFO_FIELDS as SessionInfo, or null when the session is not live. */
export function decodeInfoFields(
  sessionId: string,
  values: readonly (string | null)[],
): SessionInfo | null {
  if (values[0] !== 'live') return null;
  const meta: Record<string, string> = {};
  INFO_FIELDS.forEach((field, i) => {
    const value = values[i];
    if (value !== null && value !== undefined) meta[field] = value;
  });
  return decodeInfo(sessionId, meta);
}

/** The meta hash (HGETALL as a flat list or object) as SessionInfo, `userId` when bound. */
export function decodeInfo(sessionId: string, meta: Record<string, string>): SessionInfo {
  const number = (field: string) => {
    const value = Number(meta[field]);
    if (meta[field] === undefined || !Number.isFinite(value)) throw corrupt('session info');
    return value;
  };
  const info: SessionInfo = {
    id: sessionId,
    version: number('version'),
    epoch: number('epoch'),
    lastSeq: number('lastSeq'),
    messageCount: number('count'),
    tokenCount: number('tokens'),
    createdAt: number('createdAt'),
    updatedAt: number('updatedAt'),
  };
  const user = meta.user;
  if (user !== undefined) {
    if (sessionIdProblem(user) !== undefined) throw corrupt('session info');
    info.userId = user;
  }
  return info;
}

export function flatToObject(flat: readonly unknown[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) out[String(flat[i])] = String(flat[i + 1]);
  return out;
}

/** The reply of the export script as a checked snapshot (see `parseSessionSnapshot`). */
export function decodeSnapshot(sessionId: string, reply: unknown): SessionSnapshot {
  const [meta, active, records, archives, keys, results] = reply as unknown[][];
  if (!meta || !active || !records || !archives || !keys || !results) throw corrupt('an export');
  const summaries = decodeRecords(records);
  const archived = archives.flatMap((text, i) => {
    try {
      return decodeArchive(String(text));
    } catch (error) {
      throw corrupt(`the archive of summary ${i}`, error);
    }
  });
  const snapshot: SessionSnapshot = {
    format: 'mem.session.v1',
    sessionId,
    info: decodeInfo(sessionId, flatToObject(meta)),
    messages: decodeScored(active.map(String)),
    archived,
    summaries,
    idempotencyKeys: keys.map((key, i) => {
      const { duplicate: _d, ...result } = decodeAppendRecord(results[i], false);
      return { key: String(key), ...result };
    }),
  };
  try {
    return parseSessionSnapshot(snapshot);
  } catch (error) {
    throw corrupt('an export', error);
  }
}
