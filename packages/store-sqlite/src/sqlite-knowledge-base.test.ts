import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  KNOWLEDGE_BASE_SPECIFICATION_VERSION,
  type KnowledgeBase,
  type KnowledgeChunk,
  MemError,
} from '@mem/core';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createSqliteKnowledgeBase } from './sqlite-knowledge-base.ts';
import { createSqliteStore } from './sqlite-store.ts';

const COLLECTION = 'session-memory';
const dir = mkdtempSync(join(tmpdir(), 'mem-sqlite-kb-'));
const opened: KnowledgeBase[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((kb) => kb.close()));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function kbOn(options: Parameters<typeof createSqliteKnowledgeBase>[0] = { path: ':memory:' }) {
  const kb = createSqliteKnowledgeBase(options);
  opened.push(kb);
  return kb;
}

function chunk(
  id: string,
  text: string,
  metadata: Partial<KnowledgeChunk['metadata']> = {},
): KnowledgeChunk {
  return {
    id,
    text,
    tokenCount: text.split(' ').length,
    metadata: { sessionId: 's1', kind: 'summary', messageIds: [], createdAt: 1, ...metadata },
  };
}

async function rejection(promise: Promise<unknown>): Promise<MemError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(MemError.isInstance(error), String(error)).toBe(true);
  return error as MemError;
}

const CORPUS: KnowledgeChunk[] = [
  chunk('weather:0', 'User asked about the weather in Lisbon; it will be sunny and 24 degrees.'),
  chunk('billing:0', 'Invoice 20931 was paid twice. The assistant opened refund ticket AF-1042.', {
    messageIds: ['m3', 'm4'],
  }),
  chunk('deploy:0', 'The deploy of the payments service failed; rollback to version 3.2 done.', {
    messageIds: ['m5'],
  }),
  chunk('lunch:0', "Alice's favourite lunch place is the ramen bar near the office.", {
    messageIds: ['m6'],
  }),
  chunk('travel:0', 'Booked a train to Porto for Friday morning, seat 42, coach 7.', {
    kind: 'archive',
    summaryId: 'sum1',
    messageIds: ['m7', 'm8'],
  }),
];

async function seeded(): Promise<KnowledgeBase> {
  const kb = kbOn();
  await kb.add(COLLECTION, CORPUS);
  return kb;
}

async function ids(kb: KnowledgeBase, query: string, topK = 5, sessionId?: string) {
  const options = sessionId === undefined ? { topK } : { topK, sessionId };
  return (await kb.search(COLLECTION, query, options)).map((h) => h.chunk.id);
}

describe('createSqliteKnowledgeBase', () => {
  it('declares the spec version and its capabilities', () => {
    const kb = kbOn({ path: ':memory:', namespace: 'tenant_a' });
    expect(kb.specificationVersion).toBe(KNOWLEDGE_BASE_SPECIFICATION_VERSION);
    expect(kb.capabilities).toEqual({ lexical: true, semantic: false, durable: false });
    expect(kb.namespace).toBe('tenant_a');
    expect(kbOn({ path: join(dir, 'caps.db') }).capabilities.durable).toBe(true);
  });

  it('rejects a bad namespace with a config error', () => {
    let error: unknown;
    try {
      createSqliteKnowledgeBase({ path: ':memory:', namespace: 'a b' });
    } catch (e) {
      error = e;
    }
    expect((error as MemError).code).toBe('MEM_CONFIG');
  });

  it('ranks the relevant chunk first with BM25', async () => {
    const kb = await seeded();
    expect((await ids(kb, 'What happened with the refund for the invoice?'))[0]).toBe('billing:0');
    expect((await ids(kb, 'why did the payments deploy fail'))[0]).toBe('deploy:0');
    expect((await ids(kb, 'where does Alice like to eat lunch'))[0]).toBe('lunch:0');
    expect((await ids(kb, 'train to Porto'))[0]).toBe('travel:0');
    expect(await ids(kb, 'AF-1042')).toEqual(['billing:0']);
    expect(await ids(kb, 'af 1042')).toEqual(['billing:0']);
    expect(await ids(kb, 'CAFÉ lisböa weather')).toEqual(['weather:0']);
  });

  it('returns positive scores best first with ranks from 1', async () => {
    const kb = await seeded();
    const hits = await kb.search(COLLECTION, 'ticket invoice deploy', { topK: 5 });
    expect(hits.length).toBeGreaterThan(1);
    expect(hits.map((h) => h.rank)).toEqual(hits.map((_, i) => i + 1));
    for (let i = 1; i < hits.length; i++) {
      expect(hits[i - 1]?.score).toBeGreaterThanOrEqual(hits[i]?.score as number);
    }
    expect(hits.every((h) => h.score > 0)).toBe(true);
  });

  it('honours topK', async () => {
    const kb = await seeded();
    const query = 'weather invoice deploy lunch train';
    expect(await ids(kb, query, 5)).toHaveLength(5);
    expect(await ids(kb, query, 2)).toHaveLength(2);
    expect(await ids(kb, query, 1)).toEqual((await ids(kb, query, 5)).slice(0, 1));
  });

  it('returns nothing for an empty query, stopwords only, or no match', async () => {
    const kb = await seeded();
    expect(await ids(kb, '')).toEqual([]);
    expect(await ids(kb, 'the and of it')).toEqual([]);
    expect(await ids(kb, 'kubernetes')).toEqual([]);
    expect(await kb.search('unknown', 'invoice', { topK: 3 })).toEqual([]);
  });

  it('treats FTS5 syntax in a query as plain words', async () => {
    const kb = await seeded();
    for (const hostile of ['"', '""', '*', '^', '(', 'AND OR NOT', 'col:x', 'x*"']) {
      expect(await ids(kb, hostile), hostile).toEqual([]);
    }
    // "near" is just a word here (lunch:0 says "near the office"), not the NEAR operator.
    expect(await ids(kb, 'NEAR(')).toEqual(['lunch:0']);
    expect((await ids(kb, 'NEAR(invoice refund)')).sort()).toEqual(['billing:0', 'lunch:0']);
    expect(await ids(kb, 'body:invoice')).toEqual(['billing:0']);
    expect(await ids(kb, '"invoice" OR scope:c1 NOT * ^refund')).toEqual(['billing:0']);
    expect(await ids(kb, 'invoice)')).toEqual(['billing:0']);
  });

  it('restricts to one session with sessionId', async () => {
    const kb = await seeded();
    await kb.add(COLLECTION, [chunk('billing:0', 'Invoice 777 is overdue.', { sessionId: 's2' })]);
    const all = await kb.search(COLLECTION, 'invoice', { topK: 5 });
    expect(all.map((h) => h.chunk.metadata.sessionId).sort()).toEqual(['s1', 's2']);
    const s2 = await kb.search(COLLECTION, 'invoice', { topK: 5, sessionId: 's2' });
    expect(s2.map((h) => h.chunk.text)).toEqual(['Invoice 777 is overdue.']);
    expect(await ids(kb, 'invoice', 5, 'nobody')).toEqual([]);
  });

  it('keeps collections and namespaces apart on one database', async () => {
    const database = new Database(':memory:');
    const a = kbOn({ database, namespace: 'a' });
    const b = kbOn({ database, namespace: 'b' });
    await a.add(COLLECTION, CORPUS);
    await a.add('other', [chunk('x:0', 'Invoice in another collection')]);
    await b.add(COLLECTION, [chunk('y:0', 'Invoice in another namespace')]);
    expect(await ids(a, 'invoice')).toEqual(['billing:0']);
    expect((await a.search('other', 'invoice', { topK: 5 })).map((h) => h.chunk.id)).toEqual([
      'x:0',
    ]);
    expect(await ids(b, 'invoice refund')).toEqual(['y:0']);
    expect(await b.count(COLLECTION)).toBe(1);
    expect(await b.delete(COLLECTION, { sessionId: 's1' })).toBe(1);
    expect(await a.count(COLLECTION)).toBe(CORPUS.length);
    await Promise.all([a.close(), b.close()]);
    database.close();
  });

  it('replaces a chunk re-added with the same session and id', async () => {
    const kb = await seeded();
    await kb.add(COLLECTION, [chunk('billing:0', 'The customer changed their shipping address.')]);
    expect(await kb.count(COLLECTION)).toBe(CORPUS.length);
    expect(await ids(kb, 'invoice refund')).toEqual([]);
    expect(await ids(kb, 'shipping address')).toEqual(['billing:0']);
    await kb.add(COLLECTION, [chunk('billing:0', 'Shipping was late.', { sessionId: 's2' })]);
    expect(await kb.count(COLLECTION)).toBe(CORPUS.length + 1);
    // Within one batch the last one wins.
    await kb.add(COLLECTION, [chunk('dup', 'first zebra'), chunk('dup', 'second giraffe')]);
    expect(await ids(kb, 'zebra')).toEqual([]);
    expect(await ids(kb, 'giraffe')).toEqual(['dup']);
  });

  it('deletes a whole session, and its content is no longer found', async () => {
    const kb = await seeded();
    await kb.add(COLLECTION, [chunk('s2:0', 'Invoice 5 for session two', { sessionId: 's2' })]);
    expect(await kb.delete(COLLECTION, { sessionId: 's1' })).toBe(CORPUS.length);
    expect(await kb.count(COLLECTION, { sessionId: 's1' })).toBe(0);
    expect(await ids(kb, 'invoice refund ticket')).toEqual(['s2:0']);
    expect(await kb.delete(COLLECTION, { sessionId: 's1' })).toBe(0);
  });

  it('deletes by message ids: erased messages never come back through search', async () => {
    const kb = await seeded();
    expect(await kb.delete(COLLECTION, { sessionId: 's1', messageIds: ['m4', 'm99'] })).toBe(1);
    expect(await ids(kb, 'invoice refund AF-1042')).toEqual([]);
    expect(await kb.count(COLLECTION)).toBe(CORPUS.length - 1);
    expect(await kb.delete(COLLECTION, { sessionId: 's2', messageIds: ['m5'] })).toBe(0);
    expect(await kb.delete(COLLECTION, { sessionId: 's1', messageIds: [] })).toBe(0);
  });

  it('deletes by summary ids, and by a summary id passed as a message id', async () => {
    const kb = await seeded();
    expect(await kb.delete(COLLECTION, { sessionId: 's1', summaryIds: ['sum1'] })).toBe(1);
    expect(await ids(kb, 'train Porto')).toEqual([]);
    await kb.add(COLLECTION, [
      chunk('sum2:0', 'Summary: the user plans a hike.', { summaryId: 'sum2' }),
    ]);
    expect(await kb.delete(COLLECTION, { sessionId: 's1', messageIds: ['sum2'] })).toBe(1);
    expect(await ids(kb, 'hike')).toEqual([]);
  });

  it('counts per collection and per session', async () => {
    const kb = await seeded();
    await kb.add(COLLECTION, [
      chunk('a', 'x', { sessionId: 's2' }),
      chunk('b', 'y', { sessionId: 's2' }),
    ]);
    expect(await kb.count(COLLECTION)).toBe(CORPUS.length + 2);
    expect(await kb.count(COLLECTION, { sessionId: 's1' })).toBe(CORPUS.length);
    expect(await kb.count(COLLECTION, { sessionId: 's2' })).toBe(2);
    expect(await kb.count('empty')).toBe(0);
  });

  it('returns copies and keeps none of the caller objects', async () => {
    const kb = kbOn();
    const input = chunk('c:0', 'Invoice 1', { messageIds: ['m1'] });
    await kb.add(COLLECTION, [input]);
    input.text = 'changed';
    input.metadata.messageIds.push('m2');
    const [hit] = await kb.search(COLLECTION, 'invoice', { topK: 1 });
    expect(hit?.chunk).toEqual(chunk('c:0', 'Invoice 1', { messageIds: ['m1'] }));
  });

  it('validates ids and input before touching the database', async () => {
    const kb = await seeded();
    for (const bad of ['', 'a b', "x'; DROP TABLE mem_kb_chunks; --", '..', 'x'.repeat(129)]) {
      const error = await rejection(kb.count(bad));
      expect((error as { field?: string }).field).toBe('collectionId');
    }
    const badChunk = { ...chunk('bad', 'text'), tokenCount: -1 };
    const error = await rejection(kb.add(COLLECTION, [chunk('ok', 'fine words'), badChunk]));
    expect((error as { field?: string }).field).toBe('chunks[1].tokenCount');
    expect(await ids(kb, 'fine words')).toEqual([]);
    expect((await rejection(kb.search(COLLECTION, 'x', { topK: 0 }))).code).toBe('MEM_VALIDATION');
    expect((await rejection(kb.delete(COLLECTION, { sessionId: 'a\u0000b' }))).code).toBe(
      'MEM_VALIDATION',
    );
  });

  it('scores the most selective terms of a long question', async () => {
    const kb = kbOn();
    const common = 'order shipment customer invoice warehouse region budget meeting forecast';
    const filler = Array.from({ length: 40 }, (_, i) =>
      chunk(`filler:${i}`, `${common} quarter report number ${i}`),
    );
    await kb.add(COLLECTION, [...filler, chunk('needle:0', `${common} the zanzibar contract`)]);
    const hits = await kb.search(COLLECTION, `${common} zanzibar`, { topK: 1 });
    expect(hits.map((h) => h.chunk.id)).toEqual(['needle:0']);
  });

  it('persists in a file shared with a Store, across close and reopen', async () => {
    const path = join(dir, 'shared.db');
    const store = createSqliteStore({ path });
    const first = createSqliteKnowledgeBase({ path });
    await first.add(COLLECTION, CORPUS);
    await store.append(
      's',
      [{ id: 'm', role: 'user', content: 'hi', createdAt: 1, tokenCount: 1 }],
      {
        idempotencyKey: 'k',
      },
    );
    await Promise.all([first.close(), store.close()]);
    const again = kbOn({ path });
    expect(await ids(again, 'train to Porto')).toEqual(['travel:0']);
    expect(await again.count(COLLECTION)).toBe(CORPUS.length);
  });

  it('rejects every call after close', async () => {
    const kb = await seeded();
    await kb.close();
    expect((await rejection(kb.count(COLLECTION))).code).toBe('MEM_STORE');
    expect((await rejection(kb.search(COLLECTION, 'x', { topK: 1 }))).code).toBe('MEM_STORE');
  });
});
