import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createWordVectorEmbedder } from '@mem/core/testing';
import { runKnowledgeBaseTests } from '@mem/store-test-suite';
import Database from 'better-sqlite3';
import { afterAll } from 'vitest';
import { createSqliteKnowledgeBase } from './sqlite-knowledge-base.ts';

const dir = mkdtempSync(join(tmpdir(), 'mem-sqlite-vec-'));
const shared = new Database(':memory:');
afterAll(() => {
  shared.close();
  rmSync(dir, { recursive: true, force: true });
});

const embedder = createWordVectorEmbedder();
for (const retrieval of ['hybrid', 'semantic', 'lexical'] as const) {
  const path = join(dir, `${retrieval}.db`);
  runKnowledgeBaseTests(
    `sqlite file, ${retrieval} with an embedder`,
    (options) => createSqliteKnowledgeBase({ path, embedder, retrieval, ...options }),
    { semanticOnly: retrieval === 'semantic' },
  );
}
runKnowledgeBaseTests('sqlite :memory:, hybrid with an embedder', (options) =>
  createSqliteKnowledgeBase({ database: shared, embedder, ...options }),
);
