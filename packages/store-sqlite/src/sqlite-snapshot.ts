import type { SessionSnapshot, StoredMessage, SummaryRecord } from '@mem/core';
import {
  IDEMPOTENCY_WINDOW,
  infoOf,
  insertMessage,
  messageRowOf,
  saveHead,
  storedOf,
} from './sqlite-session.ts';
import type { SessionKey, SessionRow, Statements } from './statements.ts';

/** Everything a live session holds; archived messages record by record, oldest record first. */
export function snapshotOf(st: Statements, key: SessionKey, row: SessionRow): SessionSnapshot {
  const summaries = st.summaries.all(key).map((r) => JSON.parse(r.json) as SummaryRecord);
  return {
    format: 'mem.session.v1',
    sessionId: key.sid,
    info: infoOf(key.sid, row),
    messages: st.readAscending
      .all({ ...key, after: 0, before: Number.MAX_SAFE_INTEGER, limit: -1 })
      .map(storedOf),
    archived: summaries.flatMap((r) => st.archived.all({ ...key, summaryId: r.id }).map(storedOf)),
    summaries,
    idempotencyKeys: st.idempotencyKeys.all(key).map((k) => ({
      key: k.key,
      version: k.version,
      epoch: k.epoch,
      firstSeq: k.first_seq,
      lastSeq: k.last_seq,
    })),
  };
}

/** Writes a snapshot checked by `parseSessionSnapshot`, replacing whatever had its id. */
export function importSnapshot(
  st: Statements,
  key: SessionKey,
  snapshot: SessionSnapshot,
  expiresAt: number | null,
): void {
  st.deleteData.run(key);
  const { info } = snapshot;
  for (const m of snapshot.messages) insertMessage(st, key, rowOf(m));
  const byId = new Map(snapshot.archived.map((m) => [m.id, m]));
  for (const record of snapshot.summaries) {
    for (const id of record.originalMessageIds) {
      const row = rowOf(byId.get(id) as StoredMessage);
      st.insertArchived.run({ ...key, summaryId: record.id, seq: row.seq, id, json: row.json });
    }
    st.insertSummary.run({ ...key, summaryId: record.id, json: JSON.stringify(record) });
  }
  for (const k of snapshot.idempotencyKeys.slice(-IDEMPOTENCY_WINDOW)) {
    const { version, epoch, firstSeq, lastSeq } = k;
    st.insertIdempotencyKey.run({ ...key, key: k.key, version, epoch, firstSeq, lastSeq });
  }
  const head = {
    live: true,
    version: info.version,
    epoch: info.epoch,
    lastSeq: info.lastSeq,
    messageCount: snapshot.messages.length,
    tokenCount: info.tokenCount,
    createdAt: info.createdAt,
    updatedAt: info.updatedAt,
  };
  saveHead(st, key, head, expiresAt);
}

function rowOf(message: StoredMessage) {
  const { seq, ...counted } = message;
  return messageRowOf(counted, seq);
}
