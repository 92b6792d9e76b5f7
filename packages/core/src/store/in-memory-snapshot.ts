import { IDEMPOTENCY_WINDOW, type SessionState, sessionInfo } from './in-memory-session.ts';
import type { SessionSnapshot, StoredMessage } from './store-spec.ts';

/** Archived messages in snapshot order: record by record, oldest record first. */
export function archivedInOrder(s: SessionState): StoredMessage[] {
  return [...s.summaries.keys()].flatMap((id) => s.archive.get(id) ?? []);
}

export function snapshotOf(s: SessionState): SessionSnapshot {
  return {
    format: 'mem.session.v1',
    sessionId: s.id,
    info: sessionInfo(s),
    messages: s.active,
    archived: archivedInOrder(s),
    summaries: [...s.summaries.values()],
    idempotencyKeys: [...s.keys.values()],
  };
}

/** Rebuilds a session from a snapshot checked by `parseSessionSnapshot` (and owned by the store). */
export function stateFromSnapshot(snapshot: SessionSnapshot): SessionState {
  const { info } = snapshot;
  const byId = new Map(snapshot.archived.map((m) => [m.id, m]));
  const keys = snapshot.idempotencyKeys.slice(-IDEMPOTENCY_WINDOW);
  return {
    id: snapshot.sessionId,
    ...(info.userId === undefined ? {} : { userId: info.userId }),
    version: info.version,
    epoch: info.epoch,
    lastSeq: info.lastSeq,
    createdAt: info.createdAt,
    updatedAt: info.updatedAt,
    tokenCount: info.tokenCount,
    active: snapshot.messages,
    ids: new Set([...snapshot.messages, ...snapshot.archived].map((m) => m.id)),
    archive: new Map(
      snapshot.summaries.map((r) => [r.id, r.originalMessageIds.map((id) => byId.get(id)!)]),
    ),
    summaries: new Map(snapshot.summaries.map((r) => [r.id, r])),
    keys: new Map(keys.map((k) => [k.key, k])),
  };
}
