import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemConfigError } from '@mem/core';
import type { KnowledgeBase } from '@mem/core/backend';
import { createWordVectorEmbedder, type WordVectorEmbedderOptions } from '@mem/core/testing';
import {
  expectMemError,
  KNOWLEDGE_CORPUS,
  knowledgeChunk,
  searchIds,
  TEST_COLLECTION,
} from '@mem/store-test-suite';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createSqliteKnowledgeBase } from './sqlite-knowledge-base.ts';
import type { SqliteKnowledgeBaseOptions } from './sqlite-knowledge-base-options.ts';

const dir = mkdtempSync(join(tmpdir(), 'mem-sqlite-vkb-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const opened: KnowledgeBase[] = [];
const databases: Database.Database[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((kb) => kb.close()));
  for (const db of databases.splice(0)) db.close();
});

function kbOn(options: SqliteKnowledgeBaseOptions): KnowledgeBase {
  const kb = createSqliteKnowledgeBase(options);
  opened.push(kb);
  return kb;
}
function database(path = ':memory:'): Database.Database {
  const db = new Database(path);
  databases.push(db);
  return db;
}
let files = 0;
const freshFile = () => join(dir, `kb-${++files}.db`);
const embedderWith = (options: WordVectorEmbedderOptions = {}) => createWordVectorEmbedder(options);
const vectorRows = (db: Database.Database) =>
  (db.prepare('SELECT count(*) AS n FROM mem_kb_vec_1').get() as { n: number }).n;

describe('createSqliteKnowledgeBase with an embedder', () => {
  it('finds a paraphrase by meaning that the words miss', async () => {
    const db = database();
    const embedder = embedderWith();
    const semantic = kbOn({ database: db, embedder, retrieval: 'semantic' });
    const lexical = kbOn({ database: db, embedder, retrieval: 'lexical' });
    await semantic.add(TEST_COLLECTION, KNOWLEDGE_CORPUS);
    // "bill" and "reimbursement" are not in any chunk; "invoice" and "refund" are.
    expect(await searchIds(lexical, 'bill reimbursement')).toStrictEqual([]);
    expect(await searchIds(semantic, 'bill reimbursement')).toStrictEqual(['billing:0']);
    const hybrid = kbOn({ database: db, embedder });
    expect(await searchIds(hybrid, 'rail trip')).toStrictEqual(['travel:0']);
  });

  it('declares its capabilities by retrieval mode; hybrid is the default with an embedder', () => {
    const embedder = embedderWith();
    const caps = (retrieval?: 'lexical' | 'semantic' | 'hybrid') =>
      kbOn({ path: ':memory:', embedder, ...(retrieval && { retrieval }) }).capabilities;
    expect(caps()).toEqual({ lexical: true, semantic: true, durable: false });
    expect(caps('semantic')).toEqual({ lexical: false, semantic: true, durable: false });
    expect(caps('lexical')).toEqual({ lexical: true, semantic: false, durable: false });
  });

  it('ranks first, in hybrid mode, the chunk strong in both lists', async () => {
    const db = database();
    const embedder = embedderWith();
    const hybrid = kbOn({ database: db, embedder });
    await hybrid.add(TEST_COLLECTION, [
      // Words: "invoice" three times ranks first by BM25; by meaning it is diluted.
      knowledgeChunk('words', 'invoice invoice invoice list archive folder cabinet drawer shelf'),
      // Meaning: a paraphrase ("bill", "reimbursement") with no query word.
      knowledgeChunk('meaning', 'bill reimbursement'),
      // Both: the query's words, nothing else.
      knowledgeChunk('both', 'invoice refund note'),
    ]);
    const lexical = kbOn({ database: db, embedder, retrieval: 'lexical' });
    const semantic = kbOn({ database: db, embedder, retrieval: 'semantic' });
    const query = 'invoice refund';
    const words = await searchIds(lexical, query);
    const meaning = await searchIds(semantic, query);
    expect(words).toStrictEqual(['both', 'words']);
    expect(meaning[0]).toBe('meaning');
    expect(meaning).toContain('both');
    expect((await searchIds(hybrid, query))[0]).toBe('both');
    expect(await searchIds(hybrid, query)).toHaveLength(3);
  });

  it('scores hybrid hits with Reciprocal Rank Fusion of the two lists', async () => {
    const db = database();
    const embedder = embedderWith();
    const rrfK = 10;
    const hybrid = kbOn({ database: db, embedder, rrfK });
    await hybrid.add(TEST_COLLECTION, [
      ...KNOWLEDGE_CORPUS,
      knowledgeChunk('bill:1', 'The bill for the ramen lunch was split.'),
    ]);
    const query = 'invoice lunch refund';
    const ranks = async (retrieval: 'lexical' | 'semantic') =>
      searchIds(kbOn({ database: db, embedder, retrieval }), query, { topK: 20 });
    const lists = [await ranks('lexical'), await ranks('semantic')];
    const expected = new Map<string, number>();
    for (const list of lists) {
      list.forEach((id, i) => {
        expected.set(id, (expected.get(id) ?? 0) + 1 / (rrfK + i + 1));
      });
    }
    const hits = await hybrid.search(TEST_COLLECTION, query, { topK: 20 });
    expect(hits.map((h) => h.chunk.id).sort()).toStrictEqual([...expected.keys()].sort());
    for (const hit of hits) expect(hit.score).toBeCloseTo(expected.get(hit.chunk.id) ?? 0, 12);
    expect(hits.map((h) => h.rank)).toStrictEqual(hits.map((_, i) => i + 1));
    expect(expected.get(hits[0]?.chunk.id as string)).toBe(Math.max(...expected.values()));
  });

  it('embeds once per batch of maxBatchSize, documents then queries, never holding the write lock', async () => {
    const path = freshFile();
    const db = database(path);
    const other = database(path);
    other.pragma('busy_timeout = 0');
    const seen: boolean[] = [];
    const embedder = embedderWith({
      maxBatchSize: 2,
      onEmbed: () => {
        seen.push(db.inTransaction);
        // Another connection can take the write lock while the embedder runs.
        other.exec('BEGIN IMMEDIATE; COMMIT');
      },
    });
    const kb = kbOn({ database: db, embedder });
    await kb.add(TEST_COLLECTION, KNOWLEDGE_CORPUS);
    expect(embedder.calls.map((c) => [c.purpose, c.texts.length])).toStrictEqual([
      ['document', 2],
      ['document', 2],
      ['document', 1],
    ]);
    expect(embedder.calls.flatMap((c) => c.texts)).toStrictEqual(
      KNOWLEDGE_CORPUS.map((c) => c.text),
    );
    await searchIds(kb, 'train to Porto');
    expect(embedder.calls.at(-1)).toStrictEqual({ texts: ['train to Porto'], purpose: 'query' });
    // A query without searchable words, or an empty batch, costs no call.
    await searchIds(kb, 'the and of');
    await kb.add(TEST_COLLECTION, []);
    expect(embedder.calls).toHaveLength(4);
    expect(seen).toStrictEqual([false, false, false, false]);
  });

  it('refuses an embedder of another id or dimensions on a namespace, leaving its data untouched', async () => {
    const path = freshFile();
    const first = kbOn({ path, embedder: embedderWith({ id: 'model-a' }) });
    await first.add(TEST_COLLECTION, KNOWLEDGE_CORPUS);
    for (const other of [
      embedderWith({ id: 'model-b' }),
      embedderWith({ id: 'model-a', dimensions: 64 }),
    ]) {
      const kb = kbOn({ path, embedder: other });
      const error = await expectMemError(
        kb.add(TEST_COLLECTION, [knowledgeChunk('x', 'invoice')]),
        'MEM_CONFIG',
      );
      expect(error).toBeInstanceOf(MemConfigError);
      expect((error as MemConfigError).issues[0]?.path).toBe('embedder');
      expect(error.message).toContain('"model-a" (2048 dimensions)');
      await expectMemError(kb.search(TEST_COLLECTION, 'invoice', { topK: 1 }), 'MEM_CONFIG');
      await expectMemError(kb.delete(TEST_COLLECTION, { sessionId: 's1' }), 'MEM_CONFIG');
      expect(other.calls).toStrictEqual([]);
    }
    expect(await first.count(TEST_COLLECTION)).toBe(KNOWLEDGE_CORPUS.length);
    expect(await searchIds(first, 'bill')).toStrictEqual(['billing:0']);
    // Another namespace of the same file may use another embedder.
    const b = kbOn({ path, namespace: 'b', embedder: embedderWith({ id: 'model-b' }) });
    await b.add(TEST_COLLECTION, KNOWLEDGE_CORPUS);
    expect(await searchIds(b, 'bill')).toStrictEqual(['billing:0']);
  });

  it('keeps vectors in step: replace and delete remove them, erased content is never found', async () => {
    const db = database();
    const kb = kbOn({ database: db, embedder: embedderWith(), retrieval: 'semantic' });
    await kb.add(TEST_COLLECTION, KNOWLEDGE_CORPUS);
    await kb.add(TEST_COLLECTION, KNOWLEDGE_CORPUS);
    expect(vectorRows(db)).toBe(KNOWLEDGE_CORPUS.length);
    await kb.add(TEST_COLLECTION, [knowledgeChunk('billing:0', 'Shipping address changed.')]);
    expect(vectorRows(db)).toBe(KNOWLEDGE_CORPUS.length);
    expect(await searchIds(kb, 'bill reimbursement')).toStrictEqual([]);
    expect(await kb.delete(TEST_COLLECTION, { sessionId: 's1', summaryIds: ['sum1'] })).toBe(1);
    expect(vectorRows(db)).toBe(KNOWLEDGE_CORPUS.length - 1);
    expect(await searchIds(kb, 'rail trip to Porto')).toStrictEqual([]);
    await kb.delete(TEST_COLLECTION, { sessionId: 's1' });
    expect(vectorRows(db)).toBe(0);
  });

  it('filters by collection and session inside the nearest-neighbour scan', async () => {
    const db = database();
    const kb = kbOn({ database: db, embedder: embedderWith(), retrieval: 'semantic' });
    const many = (prefix: string, sessionId: string) =>
      Array.from({ length: 300 }, (_, i) =>
        knowledgeChunk(`${prefix}${i}`, `invoice refund ticket ${i}`, { sessionId }),
      );
    await kb.add('big', many('big', 's1'));
    await kb.add('small', [knowledgeChunk('lone', 'a bill was paid twice')]);
    await kb.add(TEST_COLLECTION, [
      ...many('other', 's1'),
      knowledgeChunk('mine', 'the bill arrived late', { sessionId: 's2' }),
    ]);
    expect(await searchIds(kb, 'invoice refund ticket', { collectionId: 'small' })).toStrictEqual([
      'lone',
    ]);
    const s2 = await kb.search(TEST_COLLECTION, 'invoice refund ticket', {
      topK: 3,
      sessionId: 's2',
    });
    expect(s2.map((h) => [h.chunk.id, h.chunk.metadata.sessionId])).toStrictEqual([['mine', 's2']]);
    const big = await searchIds(kb, 'invoice refund', { collectionId: 'big', topK: 400 });
    expect(big).toHaveLength(300);
    expect(big.every((id) => id.startsWith('big'))).toBe(true);
  });

  it('writes nothing when the embedder throws or returns malformed vectors', async () => {
    const db = database();
    const good = kbOn({ database: db, embedder: embedderWith() });
    await good.add(TEST_COLLECTION, KNOWLEDGE_CORPUS);
    let calls = 0;
    const failing = embedderWith({
      maxBatchSize: 2,
      onEmbed: () => {
        calls += 1;
        if (calls === 2) throw new Error('rate limited');
      },
    });
    const kb = kbOn({ database: db, embedder: failing });
    const batch = [1, 2, 3].map((i) => knowledgeChunk(`new:${i}`, `pineapple ${i}`));
    const error = await expectMemError(kb.add(TEST_COLLECTION, batch), 'MEM_STORE');
    expect(error.message).toContain('rate limited');
    const wrong = embedderWith();
    const malformed = kbOn({
      database: db,
      embedder: { ...wrong, embed: async () => ({ embeddings: [[1, 2, 3]] }) },
    });
    await expectMemError(malformed.add(TEST_COLLECTION, batch.slice(0, 1)), 'MEM_STORE');
    expect(await kb.count(TEST_COLLECTION)).toBe(KNOWLEDGE_CORPUS.length);
    expect(vectorRows(db)).toBe(KNOWLEDGE_CORPUS.length);
    expect(await searchIds(good, 'pineapple')).toStrictEqual([]);
  });

  it('keeps a knowledge base without an embedder lexical: it reads, but refuses to write around vectors', async () => {
    const db = database();
    const lexicalOnly = database();
    kbOn({ database: lexicalOnly });
    await kbOn({ database: lexicalOnly }).add(TEST_COLLECTION, KNOWLEDGE_CORPUS);
    // sqlite-vec was never loaded into that connection.
    expect(() => lexicalOnly.prepare('SELECT vec_version()')).toThrow(/no such function/);
    await kbOn({ database: db, embedder: embedderWith() }).add(TEST_COLLECTION, KNOWLEDGE_CORPUS);
    const plain = kbOn({ database: db });
    expect(await searchIds(plain, 'AF-1042')).toStrictEqual(['billing:0']);
    expect(await plain.count(TEST_COLLECTION)).toBe(KNOWLEDGE_CORPUS.length);
    await expectMemError(plain.add(TEST_COLLECTION, KNOWLEDGE_CORPUS), 'MEM_CONFIG');
    await expectMemError(plain.delete(TEST_COLLECTION, { sessionId: 's1' }), 'MEM_CONFIG');
    expect(vectorRows(db)).toBe(KNOWLEDGE_CORPUS.length);
  });

  it('rejects semantic or hybrid retrieval without an embedder, and bad options, listing each', () => {
    const issues = (options: unknown) => {
      try {
        createSqliteKnowledgeBase(options as SqliteKnowledgeBaseOptions);
      } catch (error) {
        return (error as MemConfigError).issues.map((i) => i.path);
      }
      return [];
    };
    expect(issues({ path: ':memory:', retrieval: 'semantic' })).toStrictEqual(['embedder']);
    expect(issues({ path: ':memory:', retrieval: 'hybrid' })).toStrictEqual(['embedder']);
    expect(issues({ path: ':memory:', retrieval: 'fuzzy', rrfK: -1, namespace: 'a b' })).toEqual([
      'namespace',
      'retrieval',
      'rrfK',
    ]);
    expect(
      issues({ path: ':memory:', embedder: { specificationVersion: 'x', dimensions: 0 } }),
    ).toStrictEqual([
      'embedder.specificationVersion',
      'embedder.id',
      'embedder.dimensions',
      'embedder.maxBatchSize',
      'embedder.embed',
    ]);
  });
});
