import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemError } from '@mem/core';
import type { KnowledgeBase } from '@mem/core/backend';
import {
  KNOWLEDGE_CORPUS,
  runKnowledgeBaseTests,
  searchIds,
  TEST_COLLECTION,
} from '@mem/store-test-suite';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createSqliteKnowledgeBase } from './sqlite-knowledge-base.ts';
import { createSqliteStore } from './sqlite-store.ts';

const dir = mkdtempSync(join(tmpdir(), 'mem-sqlite-kb-'));
const shared = new Database(':memory:');
afterAll(() => {
  shared.close();
  rmSync(dir, { recursive: true, force: true });
});

// (a) A real database file that every namespace of the run shares.
const suiteFile = join(dir, 'suite.db');
runKnowledgeBaseTests('sqlite file', (options) =>
  createSqliteKnowledgeBase({ path: suiteFile, ...options }),
);
// (b) ':memory:' through one shared connection for every namespace.
runKnowledgeBaseTests('sqlite :memory:', (options) =>
  createSqliteKnowledgeBase({ database: shared, ...options }),
);

const opened: KnowledgeBase[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((kb) => kb.close()));
});

function kbOn(options: Parameters<typeof createSqliteKnowledgeBase>[0] = { path: ':memory:' }) {
  const kb = createSqliteKnowledgeBase(options);
  opened.push(kb);
  return kb;
}

async function seeded(): Promise<KnowledgeBase> {
  const kb = kbOn();
  await kb.add(TEST_COLLECTION, KNOWLEDGE_CORPUS);
  return kb;
}

describe('createSqliteKnowledgeBase', () => {
  it('declares its capabilities: durable only on a file, namespace "default" unless given', () => {
    expect(kbOn().capabilities).toEqual({ lexical: true, semantic: false, durable: false });
    expect(kbOn().namespace).toBe('default');
    expect(kbOn({ path: join(dir, 'caps.db') }).capabilities.durable).toBe(true);
  });

  it('rejects a bad namespace with a config error', () => {
    let error: unknown;
    try {
      createSqliteKnowledgeBase({ path: ':memory:', namespace: 'a b' });
    } catch (e) {
      error = e;
    }
    expect(MemError.isInstance(error) && error.code).toBe('MEM_CONFIG');
  });

  it('escapes FTS5 syntax: column filters and NEAR groups match plain words only', async () => {
    const kb = await seeded();
    // "scope" and "body" are columns of the FTS table; "c1" is a collection scope value.
    expect(await searchIds(kb, 'scope:c1')).toEqual([]);
    expect(await searchIds(kb, 'body:invoice')).toEqual(['billing:0']);
    expect(await searchIds(kb, '{scope body}: invoice')).toEqual(['billing:0']);
    expect(await searchIds(kb, 'NEAR(invoice refund, 1)')).toEqual(['billing:0', 'lunch:0']);
    expect(await searchIds(kb, '"invoice refund"')).toEqual(['billing:0']);
  });

  it('persists in a file shared with a Store, across close and reopen', async () => {
    const path = join(dir, 'shared.db');
    const store = createSqliteStore({ path });
    const first = createSqliteKnowledgeBase({ path });
    await first.add(TEST_COLLECTION, KNOWLEDGE_CORPUS);
    await store.append(
      's',
      [{ id: 'm', role: 'user', content: 'hi', createdAt: 1, tokenCount: 1 }],
      { idempotencyKey: 'k' },
    );
    await Promise.all([first.close(), store.close()]);
    const again = kbOn({ path });
    expect(await searchIds(again, 'train to Porto')).toEqual(['travel:0']);
    expect(await again.count(TEST_COLLECTION)).toBe(KNOWLEDGE_CORPUS.length);
  });
});
