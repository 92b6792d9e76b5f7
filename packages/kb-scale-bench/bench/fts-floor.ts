import { analyzeText } from '@mem/core/backend';
import BetterSqlite3, { type Database } from 'better-sqlite3';
import type { BenchQuery } from './dialogue-chunks.ts';

/**
 * The floor: SQLite's own FTS5 `bm25()` on the knowledge base's file, read with raw
 * better-sqlite3 (no mirror, no chunk JSON decoded). The SQLite knowledge base indexes each
 * chunk's analyzed text in `mem_kb_fts (rowid = mem_kb_chunks.id, scope, body)`; the query is
 * the same analyzer's terms, each quoted (valid FTS5 syntax whatever the word), joined by OR
 * (BM25 scores any chunk with one of the words), restricted to the session or the user by a
 * join on `mem_kb_chunks`.
 */
export interface FtsFloor {
  search(query: BenchQuery): Array<{ rowid: number; score: number }>;
  close(): void;
}

/** `"term1" OR "term2" …` of the analyzed query; null when it has no searchable word. */
export function ftsMatch(text: string): string | null {
  const terms = [...new Set(analyzeText(text))];
  if (terms.length === 0) return null;
  return terms.map((t) => `"${t.replaceAll('"', '""')}"`).join(' OR ');
}

const BY_SESSION = `SELECT f.rowid AS rowid, bm25(mem_kb_fts) AS score
  FROM mem_kb_fts f JOIN mem_kb_chunks c ON c.id = f.rowid
  WHERE mem_kb_fts MATCH @match AND c.session_id = @scope
  ORDER BY rank LIMIT 10`;
const BY_USER = `SELECT f.rowid AS rowid, bm25(mem_kb_fts) AS score
  FROM mem_kb_fts f JOIN mem_kb_chunks c ON c.id = f.rowid
  WHERE mem_kb_fts MATCH @match AND c.user_id = @scope
  ORDER BY rank LIMIT 10`;

/** Opens the file read-only; statements are prepared on first use. */
export function openFtsFloor(path: string): FtsFloor {
  const db: Database = new BetterSqlite3(path, { readonly: true });
  const prepared = new Map<string, BetterSqlite3.Statement>();
  const statement = (sql: string) => {
    let s = prepared.get(sql);
    if (s === undefined) {
      s = db.prepare(sql);
      prepared.set(sql, s);
    }
    return s;
  };
  return {
    search(query) {
      const match = ftsMatch(query.text);
      if (match === null) return [];
      const [sql, scope] =
        query.sessionId !== undefined ? [BY_SESSION, query.sessionId] : [BY_USER, query.userId];
      return statement(sql).all({ match, scope }) as Array<{ rowid: number; score: number }>;
    },
    close: () => db.close(),
  };
}
