import { type OwnWrite, REMOVED_LOG_KEEP } from './kb-mirror.ts';
import type { KnowledgeStatements } from './kb-statements.ts';
import { removeTerms } from './kb-terms.ts';
import type { VectorStatements } from './kb-vectors.ts';

/** Deletes a chunk row (text, vector) and logs its tombstone for other connections' mirrors. */
export function removeChunkRow(
  st: KnowledgeStatements,
  collection: number,
  id: number,
  vec: VectorStatements | undefined,
  write: OwnWrite,
): void {
  removeTerms(st, collection, id);
  st.deleteText.run({ id });
  vec?.delete(id);
  st.deleteChunk.run({ id });
  write.lastSeq = Number(st.insertRemoved.run({ collection, id }).lastInsertRowid);
  write.removed.push(id);
}

/** Keeps the newest `REMOVED_LOG_KEEP` tombstones. */
export function pruneRemovedLog(st: KnowledgeStatements, write: OwnWrite): void {
  if (write.lastSeq > REMOVED_LOG_KEEP) {
    st.pruneRemoved.run({ upTo: write.lastSeq - REMOVED_LOG_KEEP });
  }
}
