import { MemValidationError } from '../errors/errors.ts';
import { cloneJsonValue } from './json-value.ts';
import { parseMessage, parseWith } from './parse-store-input.ts';
import { sessionSnapshotSchema } from './store-schemas.ts';
import type { SessionInfo, SessionSnapshot, StoredMessage, SummaryRecord } from './store-spec.ts';
import { assertValidSessionId } from './validate-ids.ts';

/**
 * Checks a snapshot before `import` writes it: the schema, then that it describes a session a
 * store could have produced:
 * - `info.id === sessionId`, `info.messageCount` / `info.tokenCount` match `messages`;
 * - active seqs strictly increase and no seq exceeds `info.lastSeq`;
 * - message ids are unique across `messages` and `archived`;
 * - every summary record names an existing summary message, its originals are archived, and
 *   every archived message belongs to exactly one record;
 * - idempotency keys are unique;
 * - `info.userId`, when present, is a valid user id (a snapshot without one imports unbound).
 *
 * Returns a deep copy. Throws MemValidationError naming the bad path under `snapshot`.
 */
export function parseSessionSnapshot(snapshot: unknown): SessionSnapshot {
  const parsed = parseWith(sessionSnapshotSchema, snapshot, 'snapshot');
  assertValidSessionId(parsed.sessionId, 'snapshot.sessionId');
  const raw = snapshot as { messages: unknown[]; archived: unknown[] };
  const copy: SessionSnapshot = {
    format: parsed.format,
    sessionId: parsed.sessionId,
    // cloneJsonValue drops an undefined `userId`, so the copy fits the exact optional type.
    info: cloneJsonValue(parsed.info as unknown, 'snapshot.info') as SessionInfo,
    messages: raw.messages.map((m, i) => storedCopy(m, `snapshot.messages[${i}]`)),
    archived: raw.archived.map((m, i) => storedCopy(m, `snapshot.archived[${i}]`)),
    summaries: cloneJsonValue(parsed.summaries as unknown, 'snapshot.summaries') as SummaryRecord[],
    idempotencyKeys: cloneJsonValue(parsed.idempotencyKeys, 'snapshot.idempotencyKeys'),
  };
  checkConsistency(copy);
  return copy;
}

function storedCopy(message: unknown, field: string): StoredMessage {
  const seq = (message as { seq: number }).seq;
  return { ...parseMessage(message, field), seq };
}

function checkConsistency(s: SessionSnapshot): void {
  const fail = (field: string, why: string) =>
    new MemValidationError(`snapshot.${field}`, `[mem/store] invalid snapshot: ${field} ${why}.`);
  const { info } = s;
  if (info.id !== s.sessionId) throw fail('info.id', 'must equal sessionId');
  if (info.messageCount !== s.messages.length) {
    throw fail(
      'info.messageCount',
      `is ${info.messageCount} but there are ${s.messages.length} messages`,
    );
  }
  const tokens = s.messages.reduce((sum, m) => sum + m.tokenCount, 0);
  if (info.tokenCount !== tokens) {
    throw fail('info.tokenCount', `is ${info.tokenCount} but the messages sum to ${tokens}`);
  }
  const ids = new Map<string, StoredMessage>();
  const visit = (list: StoredMessage[], name: string) => {
    list.forEach((m, i) => {
      if (m.seq > info.lastSeq) throw fail(`${name}[${i}].seq`, 'is greater than info.lastSeq');
      if (ids.has(m.id)) throw fail(`${name}[${i}].id`, `${JSON.stringify(m.id)} is not unique`);
      ids.set(m.id, m);
    });
  };
  visit(s.messages, 'messages');
  visit(s.archived, 'archived');
  s.messages.forEach((m, i) => {
    const previous = s.messages[i - 1];
    if (previous !== undefined && m.seq <= previous.seq) {
      throw fail(`messages[${i}].seq`, 'must be greater than the seq before it');
    }
  });
  const archivedIds = new Set(s.archived.map((m) => m.id));
  const owner = new Map<string, string>();
  const recordIds = new Set<string>();
  s.summaries.forEach((record, i) => {
    if (recordIds.has(record.id)) throw fail(`summaries[${i}].id`, 'is not unique');
    recordIds.add(record.id);
    if (!ids.has(record.id)) throw fail(`summaries[${i}].id`, 'names no message of the session');
    record.originalMessageIds.forEach((id, j) => {
      if (!archivedIds.has(id) || owner.has(id)) {
        throw fail(
          `summaries[${i}].originalMessageIds[${j}]`,
          'must name an archived message that no other summary owns',
        );
      }
      owner.set(id, record.id);
    });
  });
  s.archived.forEach((m, i) => {
    if (!owner.has(m.id)) throw fail(`archived[${i}]`, 'belongs to no summary record');
  });
  const keys = new Set<string>();
  s.idempotencyKeys.forEach((k, i) => {
    if (keys.has(k.key)) throw fail(`idempotencyKeys[${i}].key`, 'is not unique');
    keys.add(k.key);
  });
}
