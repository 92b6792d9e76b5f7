import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KnowledgeBase } from '@mem/core/backend';
import { knowledgeChunk, searchIds, TEST_COLLECTION } from '@mem/store-test-suite';
import { expectCleanExit, killAllWorkers, spawnWorker } from '@mem/store-test-suite/processes';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { REMOVED_LOG_KEEP } from './kb-mirror.ts';
import { MIGRATIONS } from './migrations.ts';
import { createSqliteKnowledgeBase } from './sqlite-knowledge-base.ts';

const dir = mkdtempSync(join(tmpdir(), 'mem-sqlite-mirror-'));
afterAll(async () => {
  await killAllWorkers();
  rmSync(dir, { recursive: true, force: true });
});

const opened: Array<{ close(): unknown }> = [];
afterEach(async () => {
  for (const o of opened.splice(0)) await o.close();
});

/** Ids of the hits, sorted: which chunks match, whatever their order. */
async function found(kb: KnowledgeBase, query: string): Promise<string[]> {
  return (await searchIds(kb, query)).sort();
}

let files = 0;
/** Two knowledge bases on one new file, each with its own connection. */
function twoConnections(): { reader: KnowledgeBase; writer: KnowledgeBase; path: string } {
  const path = join(dir, `kb-${files++}.db`);
  const reader = createSqliteKnowledgeBase({ path });
  const writer = createSqliteKnowledgeBase({ path });
  opened.push(reader, writer);
  return { reader, writer, path };
}

const refund = knowledgeChunk('billing:0', 'Invoice 20931 was paid twice; refund ticket AF-1042.');
const deploy = knowledgeChunk('deploy:0', 'The deploy of the payments service failed.');
const porto = knowledgeChunk('travel:0', 'Book the train to Porto for Friday.');

describe('lexical search ranks in memory, in step with every connection on the file', () => {
  it("sees another connection's add, delete and replace on its next search", async () => {
    const { reader, writer } = twoConnections();
    await writer.add(TEST_COLLECTION, [refund, deploy]);
    expect(await found(reader, 'refund payments')).toEqual(['billing:0', 'deploy:0']);

    await writer.add(TEST_COLLECTION, [porto]);
    expect(await found(reader, 'train Porto')).toEqual(['travel:0']);

    expect(await writer.delete(TEST_COLLECTION, { sessionId: 's1', messageIds: [] })).toBe(0);
    await writer.delete(TEST_COLLECTION, { sessionId: 's1' });
    expect(await found(reader, 'refund payments train')).toEqual([]);

    await writer.add(TEST_COLLECTION, [refund, deploy]);
    await writer.add(TEST_COLLECTION, [{ ...refund, text: 'The refund was sent by wire.' }]);
    expect(await found(reader, 'invoice')).toEqual([]);
    expect(await found(reader, 'wire refund')).toEqual(['billing:0']);
    const [hit] = await reader.search(TEST_COLLECTION, 'wire', { topK: 1 });
    expect(hit?.chunk.text).toBe('The refund was sent by wire.');
  });

  it('sees chunks added after the newest ones were deleted (row ids are never reused)', async () => {
    const { reader, writer } = twoConnections();
    await writer.add(TEST_COLLECTION, [refund, deploy]);
    expect(await found(reader, 'deploy')).toEqual(['deploy:0']);
    // Without AUTOINCREMENT, SQLite would give the next row deploy's id, one reader has seen.
    await writer.delete(TEST_COLLECTION, { sessionId: 's1', messageIds: ['none'] });
    await writer.delete(TEST_COLLECTION, { sessionId: 's1' });
    await writer.add(TEST_COLLECTION, [refund]);
    await writer.delete(TEST_COLLECTION, { sessionId: 's1' });
    await writer.add(TEST_COLLECTION, [porto]);
    expect(await found(reader, 'deploy invoice')).toEqual([]);
    expect(await found(reader, 'Porto')).toEqual(['travel:0']);
  });

  it('keeps knowledge bases sharing one connection in step (its own commits change no data_version)', async () => {
    const db = new Database(join(dir, `shared-${files++}.db`));
    opened.push(db);
    const reader = createSqliteKnowledgeBase({ database: db });
    const writer = createSqliteKnowledgeBase({ database: db });
    opened.push(reader, writer);
    await writer.add(TEST_COLLECTION, [refund]);
    expect(await found(reader, 'refund deploy')).toEqual(['billing:0']);
    await writer.add(TEST_COLLECTION, [deploy]);
    expect(await found(reader, 'refund deploy')).toEqual(['billing:0', 'deploy:0']);
    await writer.delete(TEST_COLLECTION, { sessionId: 's1', messageIds: [] });
    await writer.delete(TEST_COLLECTION, { sessionId: 's1' });
    expect(await found(reader, 'refund deploy')).toEqual([]);
  });

  it('rebuilds when the tombstone log was pruned past what it saw', async () => {
    const { reader, writer, path } = twoConnections();
    await writer.add(TEST_COLLECTION, [refund, deploy, porto]);
    expect(await found(reader, 'refund deploy')).toEqual(['billing:0', 'deploy:0']);
    await writer.delete(TEST_COLLECTION, { sessionId: 's1' });
    await writer.add(TEST_COLLECTION, [porto]);
    // As if many more deletions had come and gone: the log starts past the reader's last seq.
    const raw = new Database(path);
    raw.exec(`DELETE FROM mem_kb_removed;
      INSERT INTO mem_kb_removed (seq, collection, chunk) VALUES (1000, 0, 0);`);
    raw.close();
    expect(await found(reader, 'refund deploy')).toEqual([]);
    expect(await found(reader, 'Porto')).toEqual(['travel:0']);
  });

  it('drops a mirror the log cannot update at a write, and rebuilds it at the next search', async () => {
    const { reader, writer, path } = twoConnections();
    await writer.add(TEST_COLLECTION, [refund, deploy]);
    expect(await found(reader, 'refund deploy')).toEqual(['billing:0', 'deploy:0']);
    await writer.delete(TEST_COLLECTION, { sessionId: 's1' });
    const raw = new Database(path);
    raw.exec(`DELETE FROM mem_kb_removed;
      INSERT INTO mem_kb_removed (seq, collection, chunk) VALUES (1000, 0, 0);`);
    raw.close();
    await reader.add(TEST_COLLECTION, [porto]);
    expect(await found(reader, 'refund deploy Porto')).toEqual(['travel:0']);
  });

  it(`keeps the newest ${REMOVED_LOG_KEEP.toLocaleString('en-US')} tombstones`, async () => {
    const { writer, path } = twoConnections();
    await writer.add(TEST_COLLECTION, [refund]);
    const raw = new Database(path);
    raw.exec(`INSERT INTO mem_kb_removed (seq, collection, chunk) VALUES (1, 0, 0), (2, 0, 0),
      (${REMOVED_LOG_KEEP + 5}, 0, 0);`);
    await writer.delete(TEST_COLLECTION, { sessionId: 's1' });
    const seqs = raw.prepare('SELECT seq FROM mem_kb_removed ORDER BY seq').pluck().all();
    raw.close();
    expect(seqs).toEqual([REMOVED_LOG_KEEP + 5, REMOVED_LOG_KEEP + 6]);
  });

  it("sees another OS process's add, delete and replace", async () => {
    const { reader, path } = twoConnections();
    await reader.add(TEST_COLLECTION, [deploy]);
    expect(await found(reader, 'refund deploy')).toEqual(['deploy:0']);
    const child = spawnWorker(new URL('./__fixtures__/kb-writer.ts', import.meta.url), [
      path,
      TEST_COLLECTION,
    ]);
    await child.waitForLine((line) => line === 'ready');
    let ops = 0;
    const run = async (op: object) => {
      const done = `done ${++ops}`;
      child.send(JSON.stringify(op));
      await child.waitForLine((line) => line === done);
    };
    await run({ add: [refund, porto] });
    expect(await found(reader, 'refund deploy Porto')).toEqual([
      'billing:0',
      'deploy:0',
      'travel:0',
    ]);
    await run({ add: [{ ...refund, text: 'Paid by wire.' }] });
    expect(await found(reader, 'refund wire')).toEqual(['billing:0']);
    expect(await found(reader, 'invoice')).toEqual([]);
    await run({ delete: { sessionId: 's1' } });
    expect(await found(reader, 'refund deploy Porto wire')).toEqual([]);
    // This connection's own writes keep applying on top.
    await reader.add(TEST_COLLECTION, [deploy]);
    expect(await found(reader, 'refund deploy Porto wire')).toEqual(['deploy:0']);
    child.child.stdin?.end();
    await expectCleanExit(child);
  });

  it('migrates a schema 2 file: its chunks are found, and new rows never take an old id', async () => {
    const path = join(dir, `v2-${files++}.db`);
    const raw = new Database(path);
    raw.exec(MIGRATIONS[0] as string);
    raw.exec(MIGRATIONS[1] as string);
    raw.pragma('user_version = 2');
    raw
      .prepare(
        "INSERT INTO mem_kb_collections (id, namespace, collection_id) VALUES (1, 'default', ?)",
      )
      .run(TEST_COLLECTION);
    raw
      .prepare("INSERT INTO mem_kb_chunks VALUES (7, 1, 's1', 'billing:0', 1, ?)")
      .run(JSON.stringify(refund));
    raw
      .prepare("INSERT INTO mem_kb_fts (rowid, scope, body) VALUES (7, 'c1', 'invoice refund')")
      .run();
    const kb = createSqliteKnowledgeBase({ path });
    opened.push(kb, raw);
    expect(await found(kb, 'refund')).toEqual(['billing:0']);
    await kb.delete(TEST_COLLECTION, { sessionId: 's1' });
    await kb.add(TEST_COLLECTION, [deploy]);
    expect(raw.prepare('SELECT id FROM mem_kb_chunks').pluck().all()).toEqual([8]);
    expect(await found(kb, 'refund deploy')).toEqual(['deploy:0']);
  });

  it('migrates a file from before summary ids were indexed: delete by summary id finds its chunks', async () => {
    const path = join(dir, `pre-summary-index-${files++}.db`);
    const raw = new Database(path);
    // Schema 3: the last one before mem_kb_chunks.summary_id.
    const before = 3;
    for (const migration of MIGRATIONS.slice(0, before)) raw.exec(migration);
    raw.pragma(`user_version = ${before}`);
    raw
      .prepare(
        "INSERT INTO mem_kb_collections (id, namespace, collection_id) VALUES (1, 'default', ?)",
      )
      .run(TEST_COLLECTION);
    const rows: Array<[number, string, string]> = [
      [1, 'S1:0', JSON.stringify(knowledgeChunk('S1:0', 'refund wire', { summaryId: 'S1' }))],
      [2, 'S1:1', JSON.stringify(knowledgeChunk('S1:1', 'refund ticket', { summaryId: 'S1' }))],
      [3, 'S2:0', JSON.stringify(knowledgeChunk('S2:0', 'refund porto', { summaryId: 'S2' }))],
      [4, 'turn:0', JSON.stringify(knowledgeChunk('turn:0', 'refund deploy'))],
      // Not what this store writes: the migration leaves it without a summary id.
      [5, 'broken:0', '{"id": "broken:0", "metadata": '],
    ];
    for (const [id, chunkId, json] of rows) {
      raw.prepare(`INSERT INTO mem_kb_chunks VALUES (?, 1, 's1', ?, 1, ?)`).run(id, chunkId, json);
    }
    raw.close();
    const kb = createSqliteKnowledgeBase({ path });
    opened.push(kb);
    expect(await kb.delete(TEST_COLLECTION, { sessionId: 's1', summaryIds: ['S1', 'S9'] })).toBe(2);
    const check = new Database(path, { readonly: true });
    opened.push(check);
    expect(check.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    expect(
      check.prepare('SELECT chunk_id, summary_id FROM mem_kb_chunks ORDER BY id').all(),
    ).toEqual([
      { chunk_id: 'S2:0', summary_id: 'S2' },
      { chunk_id: 'turn:0', summary_id: null },
      { chunk_id: 'broken:0', summary_id: null },
    ]);
    // New rows carry their summary id too.
    await kb.add(TEST_COLLECTION, [knowledgeChunk('S3:0', 'refund later', { summaryId: 'S3' })]);
    expect(await kb.delete(TEST_COLLECTION, { sessionId: 's1', summaryIds: ['S2', 'S3'] })).toBe(2);
  });
});
