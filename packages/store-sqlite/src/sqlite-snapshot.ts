import type { SessionSnapshot, StoredMessage } from '@mem/core/backend';
import { recordOf, storedOf } from './decode-rows.ts';
import {
  IDEMPOTENCY_WINDOW,
  infoOf,
  insertMessage,
  messageRowOf,
  saveHead,
} from './sqlite-session.ts';
import type { SessionRef, SessionRow, Statements } from './statements.ts';

/** Everything a live session holds; archived messages record by record, oldest record first. */
export function snapshotOf(st: Statements, ref: SessionRef, row: SessionRow): SessionSnapshot {
  const summaries = st.summaries.all(ref.id).map((r) => recordOf(r.json, ref.sid));
  return {
    format: 'mem.session.v1',
    sessionId: ref.sid,
    info: infoOf(ref.sid, row),
    messages: st.readJsonAscending
      .all({ s: ref.id, after: 0, before: Number.MAX_SAFE_INTEGER, limit: -1 })
      .map((m) => storedOf(m, ref.sid)),
    archived: summaries.flatMap((r) =>
      st.archived.all({ s: ref.id, summaryId: r.id }).map((m) => storedOf(m, ref.sid)),
    ),
    summaries,
    idempotencyKeys: st.idempotencyKeys.all(ref.id).map((k) => ({
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
  ref: SessionRef,
  snapshot: SessionSnapshot,
  expiresAt: number | null,
): void {
  st.deleteData.run(ref.id);
  const { info } = snapshot;
  for (const m of snapshot.messages) insertMessage(st, ref, rowOf(m));
  const byId = new Map(snapshot.archived.map((m) => [m.id, m]));
  for (const record of snapshot.summaries) {
    for (const id of record.originalMessageIds) {
      const row = rowOf(byId.get(id) as StoredMessage);
      st.insertArchived.run({ s: ref.id, summaryId: record.id, seq: row.seq, id, json: row.json });
    }
    st.insertSummary.run({ s: ref.id, summaryId: record.id, json: JSON.stringify(record) });
  }
  // Imported keys keep their order below every later append's ord (its version, >= 1).
  const keys = snapshot.idempotencyKeys.slice(-IDEMPOTENCY_WINDOW);
  keys.forEach((k, i) => {
    const { version, epoch, firstSeq, lastSeq } = k;
    st.insertIdempotencyKey.run(ref.id, k.key, i - keys.length, version, epoch, firstSeq, lastSeq);
  });
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
  saveHead(st, ref, head, expiresAt);
  st.bindUser.run(info.userId ?? null, ref.id);
}

function rowOf(message: StoredMessage) {
  const { seq, ...counted } = message;
  return messageRowOf(counted, seq);
}
