import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInMemoryKnowledgeBase } from '@mem/core';
import type { KnowledgeBase, KnowledgeChunk, KnowledgeHit } from '@mem/core/backend';
import { knowledgeChunk, TEST_COLLECTION } from '@mem/store-test-suite';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { prepareKnowledgeStatements } from './kb-statements.ts';
import { MIGRATIONS } from './migrations.ts';
import { createSqliteKnowledgeBase } from './sqlite-knowledge-base.ts';

const dir = mkdtempSync(join(tmpdir(), 'mem-sqlite-scope-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const opened: Array<{ close(): unknown }> = [];
afterEach(async () => {
  for (const o of opened.splice(0)) await o.close();
});

let files = 0;
function twoConnections(): { reader: KnowledgeBase; writer: KnowledgeBase; path: string } {
  const path = join(dir, `kb-${files++}.db`);
  const reader = createSqliteKnowledgeBase({ path });
  const writer = createSqliteKnowledgeBase({ path });
  opened.push(reader, writer);
  return { reader, writer, path };
}

const inSession = (id: string, text: string, sessionId: string, userId?: string) =>
  knowledgeChunk(id, text, { sessionId, ...(userId === undefined ? {} : { userId }) });

async function ids(kb: KnowledgeBase, query: string, scope: object): Promise<string[]> {
  const hits = await kb.search(TEST_COLLECTION, query, { topK: 10, ...scope });
  return hits.map((h) => h.chunk.id).sort();
}

const view = (hits: KnowledgeHit[]) =>
  hits.map((h) => [h.rank, h.chunk.metadata.sessionId, h.chunk.id, h.score]);

describe('a search scoped to a session or a user reads BM25 statistics from the file', () => {
  it("sees another connection's add, delete and replace in the scope it searched before", async () => {
    const { reader, writer } = twoConnections();
    await writer.add(TEST_COLLECTION, [
      inSession('a', 'refund for invoice 20931', 's1', 'u1'),
      inSession('b', 'train to porto on friday', 's2', 'u1'),
      inSession('c', 'refund the train ticket', 's3', 'u2'),
    ]);
    expect(await ids(reader, 'refund train', { sessionId: 's1' })).toEqual(['a']);
    expect(await ids(reader, 'refund train', { userId: 'u1' })).toEqual(['a', 'b']);

    await writer.add(TEST_COLLECTION, [inSession('d', 'refund sent by wire', 's1', 'u1')]);
    expect(await ids(reader, 'refund train', { sessionId: 's1' })).toEqual(['a', 'd']);
    expect(await ids(reader, 'refund train', { userId: 'u1' })).toEqual(['a', 'b', 'd']);

    await writer.delete(TEST_COLLECTION, { sessionId: 's2' });
    expect(await ids(reader, 'refund train', { userId: 'u1' })).toEqual(['a', 'd']);

    // Replaced: the old text is gone from the scope, the new one is found.
    await writer.add(TEST_COLLECTION, [inSession('a', 'lunch at the ramen bar', 's1', 'u1')]);
    expect(await ids(reader, 'refund', { sessionId: 's1' })).toEqual(['d']);
    expect(await ids(reader, 'ramen', { sessionId: 's1', userId: 'u1' })).toEqual(['a']);
    // The reader's own writes too.
    await reader.delete(TEST_COLLECTION, { userId: 'u1' });
    expect(await ids(reader, 'refund ramen train', { userId: 'u1' })).toEqual([]);
    expect(await ids(reader, 'refund ramen train', { sessionId: 's3' })).toEqual(['c']);
  });

  it('ranks a large scope it searched before through its postings, as the in-memory knowledge base does, across writes of another connection', async () => {
    const { reader, writer } = twoConnections();
    const memory = createInMemoryKnowledgeBase();
    opened.push(memory);
    const words = Array.from({ length: 40 }, (_, i) => `word${i}`);
    let seed = 7;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed;
    };
    const text = () => Array.from({ length: 6 }, () => words[next() % words.length]).join(' ');
    const batch = (from: number, count: number, sessionId: string) =>
      Array.from({ length: count }, (_, i) => ({
        ...inSession(`c${from + i}`, text(), sessionId, 'u1'),
        metadata: { ...inSession('x', 'x', sessionId, 'u1').metadata, createdAt: next() % 5 },
      }));
    const both = async (step: (kb: KnowledgeBase) => Promise<unknown>) => {
      await step(writer);
      await step(memory);
    };
    const adding = (chunks: KnowledgeChunk[]) => both((kb) => kb.add(TEST_COLLECTION, chunks));
    await adding(batch(0, 600, 's1'));
    await adding(batch(600, 300, 's2'));
    const compare = async () => {
      for (const scope of [{ sessionId: 's1' }, { userId: 'u1' }]) {
        for (let q = 0; q < 4; q++) {
          const query = `${words[next() % 40]} ${words[next() % 40]} ${words[next() % 40]}`;
          const options = { topK: 8, ...scope };
          expect(view(await reader.search(TEST_COLLECTION, query, options))).toEqual(
            view(await memory.search(TEST_COLLECTION, query, options)),
          );
        }
      }
    };
    await compare();
    await compare(); // the second search of each scope builds its postings
    await adding(batch(900, 50, 's1'));
    await compare();
    await both((kb) => kb.delete(TEST_COLLECTION, { sessionId: 's1', messageIds: [] }));
    await adding(batch(0, 400, 's1')); // replaces c0..c399
    await compare();
    await both((kb) => kb.delete(TEST_COLLECTION, { sessionId: 's2' }));
    await compare();
  });

  it('hands out copies: a caller that changes a hit changes no later scoped search', async () => {
    const { reader, writer } = twoConnections();
    const chunk = knowledgeChunk('a', 'refund for invoice 20931', {
      sessionId: 's1',
      userId: 'u1',
      messageIds: ['m1'],
    });
    await writer.add(TEST_COLLECTION, [chunk]);
    for (const scope of [{ sessionId: 's1' }, { userId: 'u1' }]) {
      const [hit] = await reader.search(TEST_COLLECTION, 'invoice', { topK: 1, ...scope });
      expect(hit?.chunk).toStrictEqual(chunk);
      if (hit !== undefined) {
        hit.chunk.text = 'mutated';
        hit.chunk.metadata.messageIds.push('m9');
      }
      const [again] = await reader.search(TEST_COLLECTION, 'invoice', { topK: 1, ...scope });
      expect(again?.chunk).toStrictEqual(chunk);
    }
  });

  it('reads a scope again when the tombstone log was pruned past what it saw', async () => {
    const { reader, writer, path } = twoConnections();
    await writer.add(TEST_COLLECTION, [
      inSession('a', 'refund for invoice 20931', 's1'),
      inSession('b', 'refund the train ticket', 's1'),
    ]);
    expect(await ids(reader, 'refund', { sessionId: 's1' })).toEqual(['a', 'b']);
    await writer.delete(TEST_COLLECTION, { sessionId: 's1', messageIds: [] });
    await writer.delete(TEST_COLLECTION, { sessionId: 's1' });
    await writer.add(TEST_COLLECTION, [inSession('c', 'refund by wire', 's1')]);
    // As if many more deletions had come and gone: the log starts past the reader's last seq.
    const raw = new Database(path);
    raw.exec(`DELETE FROM mem_kb_removed;
      INSERT INTO mem_kb_removed (seq, collection, chunk) VALUES (1000, 0, 0);`);
    raw.close();
    expect(await ids(reader, 'refund', { sessionId: 's1' })).toEqual(['c']);
  });

  it('finds every scope’s rows and statistics through an index, never by scanning the collection', () => {
    const db = new Database(':memory:');
    try {
      for (const migration of MIGRATIONS) db.exec(migration);
      const st = prepareKnowledgeStatements(db) as unknown as Record<string, { source: string }>;
      const plan = (name: string) =>
        (
          db.prepare(`EXPLAIN QUERY PLAN ${(st[name] as { source: string }).source}`).all({
            collection: 1,
            sid: 's',
            user: 'u',
            after: 0,
            terms: '[]',
            id: 1,
          }) as { detail: string }[]
        )
          .map((row) => row.detail)
          .join('; ');
      expect(plan('sessionTerms')).toMatch(
        /SEARCH c USING COVERING INDEX \S+ \(collection=\? AND session_id=\?\).*SEARCH t USING INTEGER PRIMARY KEY/,
      );
      expect(plan('userTerms')).toMatch(
        /SEARCH c USING COVERING INDEX mem_kb_chunks_user \(collection=\? AND user_id=\?\).*SEARCH t USING INTEGER PRIMARY KEY/,
      );
      expect(plan('sessionUserTerms')).toMatch(
        /SEARCH c USING COVERING INDEX \S+ \(collection=\? AND session_id=\?\)/,
      );
      expect(plan('termsAfter')).toMatch(/SEARCH t USING INTEGER PRIMARY KEY \(rowid>\?\)/);
      expect(plan('dfOf')).toMatch(
        /SEARCH mem_kb_df USING INDEX \S+ \(collection=\? AND term=\?\)/,
      );
      expect(plan('stats')).toMatch(/SEARCH mem_kb_stats USING INTEGER PRIMARY KEY/);
      for (const name of ['sessionTerms', 'userTerms', 'sessionUserTerms', 'termsAfter', 'dfOf']) {
        expect(plan(name)).not.toMatch(/SCAN (c|t|mem_kb_chunks|mem_kb_terms|mem_kb_df)\b/);
      }
    } finally {
      db.close();
    }
  });

  it('migrates a schema 5 file: its chunks are analyzed once and ranked as the in-memory knowledge base ranks them', async () => {
    const path = join(dir, `schema-5-${files++}.db`);
    const raw = new Database(path);
    const before = 5;
    for (const migration of MIGRATIONS.slice(0, before)) raw.exec(migration);
    raw.pragma(`user_version = ${before}`);
    raw
      .prepare(
        "INSERT INTO mem_kb_collections (id, namespace, collection_id) VALUES (1, 'default', ?)",
      )
      .run(TEST_COLLECTION);
    const chunks: KnowledgeChunk[] = [
      inSession('a', 'Invoice 20931 was paid twice; refund ticket AF-1042.', 's1', 'u1'),
      inSession('b', 'Book the train to Porto for Friday, refund if late.', 's1', 'u1'),
      inSession('c', 'The deploy of the payments service failed.', 's2', 'u1'),
      inSession('d', 'Refund the deploy credits, said the payments team.', 's3', 'u2'),
      inSession('e', '東京の天気は晴れです。返金は金曜日。', 's2'),
    ];
    const insert = raw.prepare(
      `INSERT INTO mem_kb_chunks (collection, session_id, chunk_id, created_at, json, user_id)
       VALUES (1, ?, ?, 1, ?, ?)`,
    );
    for (const chunk of chunks) {
      insert.run(
        chunk.metadata.sessionId,
        chunk.id,
        JSON.stringify(chunk),
        chunk.metadata.userId ?? null,
      );
    }
    // Not what this store writes: left out of the statistics, never found, still deletable.
    insert.run('s1', 'broken', '{"id": "broken", "metadata": ', 'u1');
    raw.close();

    const kb = createSqliteKnowledgeBase({ path });
    const memory = createInMemoryKnowledgeBase();
    opened.push(kb, memory);
    await memory.add(TEST_COLLECTION, chunks);
    for (const scope of [{ sessionId: 's1' }, { userId: 'u1' }, { sessionId: 's2' }, {}]) {
      for (const query of ['refund payments deploy', 'train Porto Friday', '返金 金曜日']) {
        expect(view(await kb.search(TEST_COLLECTION, query, { topK: 5, ...scope }))).toEqual(
          view(await memory.search(TEST_COLLECTION, query, { topK: 5, ...scope })),
        );
      }
    }
    const check = new Database(path, { readonly: true });
    opened.push(check);
    expect(check.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    expect(check.prepare('SELECT documents FROM mem_kb_stats').pluck().all()).toEqual([5]);
    expect(await kb.delete(TEST_COLLECTION, { sessionId: 's1' })).toBe(3);
    expect(check.prepare('SELECT documents FROM mem_kb_stats').pluck().all()).toEqual([3]);
  });
});
