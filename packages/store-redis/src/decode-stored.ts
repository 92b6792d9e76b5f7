import {
  type AppendResult,
  MemStoreError,
  parseCountedMessages,
  parseSessionSnapshot,
  type SessionInfo,
  type SessionSnapshot,
  type StoredMessage,
  type SummaryRecord,
} from '@mem/core';

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

/** Stored members (`{"seq":N,...message}`) to checked messages, in the given order. */
export function decodeMessages(members: readonly string[], what = 'a message'): StoredMessage[] {
  try {
    const seqs: number[] = [];
    const raw = members.map((member) => {
      const { seq, ...message } = JSON.parse(member) as { seq: unknown };
      if (typeof seq !== 'number' || !Number.isInteger(seq) || seq < 1) throw corrupt(what);
      seqs.push(seq);
      return message;
    });
    const checked = parseCountedMessages(raw, { allowEmpty: true, field: 'stored' });
    return checked.map((message, i) => ({ ...message, seq: seqs[i] as number }));
  } catch (error) {
    throw corrupt(what, error);
  }
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
  try {
    return texts.map((text) => JSON.parse(String(text)) as SummaryRecord);
  } catch (error) {
    throw corrupt('a summary record', error);
  }
}

/** The meta hash (HGETALL as a flat list or object) as SessionInfo. */
export function decodeInfo(sessionId: string, meta: Record<string, string>): SessionInfo {
  const number = (field: string) => {
    const value = Number(meta[field]);
    if (meta[field] === undefined || !Number.isFinite(value)) throw corrupt('session info');
    return value;
  };
  return {
    id: sessionId,
    version: number('version'),
    epoch: number('epoch'),
    lastSeq: number('lastSeq'),
    messageCount: number('count'),
    tokenCount: number('tokens'),
    createdAt: number('createdAt'),
    updatedAt: number('updatedAt'),
  };
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
      const members = (JSON.parse(String(text)) as unknown[]).map((m) => JSON.stringify(m));
      return decodeMessages(members, 'an archived message');
    } catch (error) {
      throw corrupt(`the archive of summary ${i}`, error);
    }
  });
  const snapshot: SessionSnapshot = {
    format: 'mem.session.v1',
    sessionId,
    info: decodeInfo(sessionId, flatToObject(meta)),
    messages: decodeMessages(active.map(String)),
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
