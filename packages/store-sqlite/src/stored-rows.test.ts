import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemError } from '@mem/core';
import type { CountedMessage, Store } from '@mem/core/backend';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createSqliteStore } from './sqlite-store.ts';

/*
 * Issue 10, case 15 (b): rows are checked as they are read back. A row that is not JSON, or is
 * JSON of the wrong shape (written by something else than this store), is a MemStoreError that
 * names the session and what to do; it is never returned.
 */
const dir = mkdtempSync(join(tmpdir(), 'mem-sqlite-rows-'));
let files = 0;
const opened: Store[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const batch = (ids: readonly string[]): CountedMessage[] =>
  ids.map((id) => ({
    id,
    role: 'user',
    content: `message ${id}`,
    createdAt: 1_700_000_000_000,
    tokenCount: 2,
  }));

/** Session 'broken' of a, b, c, d compacted through b (summary 'sum'); then `sql` runs on the file. */
async function tampered(sql: string): Promise<Store> {
  const path = join(dir, `rows-${++files}.db`);
  const store = createSqliteStore({ path });
  opened.push(store);
  await store.append('broken', batch(['a', 'b', 'c', 'd']), { idempotencyKey: 'k' });
  const { epoch } = (await store.info('broken')) ?? { epoch: -1 };
  await store.compact('broken', {
    expectedEpoch: epoch,
    throughSeq: 2,
    summary: {
      id: 'sum',
      role: 'system',
      content: 'a and b',
      metadata: { kind: 'summary' },
      createdAt: 1_700_000_000_001,
      tokenCount: 1,
    },
    record: {
      id: 'sum',
      originalMessageIds: ['a', 'b'],
      fromSeq: 1,
      throughSeq: 2,
      originalTokenCount: 4,
      tokenCount: 1,
      compressionRatio: 4,
      timeRange: { start: 1_700_000_000_000, end: 1_700_000_000_000 },
      createdAt: 1_700_000_000_001,
    },
  });
  const raw = new Database(path);
  raw.exec(sql);
  raw.close();
  return store;
}

async function corruption(promise: Promise<unknown>): Promise<MemError> {
  const error = await promise.then(
    (value) => expect.fail(`expected a rejection, got ${JSON.stringify(value)}`),
    (e: unknown) => e,
  );
  expect(MemError.isInstance(error)).toBe(true);
  const memError = error as MemError;
  expect(memError.code).toBe('MEM_STORE');
  expect(memError.message).toMatch(/^\[mem\/sqlite\] .*session "broken"/);
  expect(memError.message).toMatch(/restore the session from an export or clear it/);
  return memError;
}

describe('createSqliteStore: rows read back are checked', () => {
  it('an active message of valid JSON but the wrong shape fails read and export', async () => {
    const store = await tampered(`UPDATE mem_messages SET json = '{"foo":1}' WHERE id = 'c'`);
    await corruption(store.read('broken'));
    await corruption(store.read('broken', { from: 'end', limit: 2 }));
    await corruption(store.export('broken'));
    // The rest of the file still reads.
    await store.append('fine', batch(['x']), { idempotencyKey: 'x' });
    expect((await store.read('fine')).messages.map((m) => m.id)).toStrictEqual(['x']);
  });

  it('each wrong shape of a message is refused: an array, a bad role, a negative tokenCount, no id', async () => {
    for (const json of [
      '[1,2]',
      '{"id":"c","role":"robot","content":"x","createdAt":1,"tokenCount":1}',
      '{"id":"c","role":"user","content":"x","createdAt":1,"tokenCount":-1}',
      '{"role":"user","content":"x","createdAt":1,"tokenCount":1}',
      '{"id":"c","role":"user","content":"x","tokenCount":1}',
      'null',
    ]) {
      const store = await tampered(
        `UPDATE mem_messages SET json = '${json.replaceAll("'", "''")}' WHERE id = 'c'`,
      );
      await corruption(store.read('broken'));
    }
  });

  it('a row that is not JSON names the session instead of a parser error', async () => {
    const store = await tampered(`UPDATE mem_messages SET json = '{"id":' WHERE id = 'd'`);
    const error = await corruption(store.read('broken'));
    expect(error.cause).toBeInstanceOf(SyntaxError);
  });

  it('an archived message or a summary record of the wrong shape fails archived, summaries and export', async () => {
    const archive = await tampered(`UPDATE mem_archive SET json = '{"foo":1}' WHERE id = 'a'`);
    await corruption(archive.archived('broken', 'sum'));
    await corruption(archive.export('broken'));
    const records = await tampered(`UPDATE mem_summaries SET json = '{"foo":1}'`);
    await corruption(records.summaries('broken'));
    await corruption(records.export('broken'));
  });
});
