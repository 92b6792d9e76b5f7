import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import {
  type BenchSummary,
  fmtInt,
  fmtMs,
  fmtUs,
  now,
  printTable,
  summarizeSamples,
} from '@mem/bench-kit';
import { createInMemoryKnowledgeBase } from '@mem/core';
import { type KnowledgeChunk, messageText } from '@mem/core/backend';
import { generateConversation, RECALL_SPEED_PROFILE } from '@mem/core/testing';
import {
  type BenchRun,
  benchRecallContext,
  printRecallContext,
  type RecallContextRow,
  recallContextJson,
} from '@mem/store-bench';
import BetterSqlite3 from 'better-sqlite3';
import { createSqliteKnowledgeBase } from '../src/index.ts';

export interface ColdSearch {
  chunks: number;
  /** Opening the connection (and reading the schema version), ms. */
  openMs: number;
  /** The first search of the collection: builds the in-memory BM25 mirror, ms. */
  firstSearchMs: number;
  /** The next searches (the mirror is warm). */
  warm: BenchSummary;
  /** The same searches on an in-memory knowledge base holding the same chunks. */
  memory: BenchSummary;
  /** Heap the mirror holds, per chunk, bytes (measured around the build after a full GC). */
  mirrorBytesPerChunk: number;
}

const COLLECTION = RECALL_SPEED_PROFILE.long_term_memory_strategy[0]!.knowledge_base.collection_id;

/**
 * `context()` with retrieval (`benchRecallContext`), the in-memory knowledge base and the
 * SQLite one side by side in the same run; then, on the SQLite file, a new knowledge base's
 * first search (the mirror's cold build) and its warm searches, beside the same searches on an
 * in-memory knowledge base holding the same chunks.
 */
async function benchSqliteRecallContext(
  dir: string,
  interactions: number,
  questions: number,
): Promise<{ rows: RecallContextRow[]; cold: ColdSearch }> {
  const path = join(dir, 'recall-context.db');
  const rows = await benchRecallContext(
    [
      ['in-memory (createInMemoryKnowledgeBase)', () => createInMemoryKnowledgeBase()],
      ['SQLite file (createSqliteKnowledgeBase)', () => createSqliteKnowledgeBase({ path })],
    ],
    interactions,
    questions,
  );
  return { rows, cold: await coldSearch(path, interactions, questions) };
}

async function coldSearch(path: string, interactions: number, questions: number) {
  const gc = exposeGc();
  const queries = generateConversation({ interactions: interactions + questions, seed: 11 })
    .filter((m) => m.role === 'user')
    .slice(-questions)
    .map((m) => messageText(m));
  const kb = createSqliteKnowledgeBase({ path });
  let t0 = now();
  const chunks = await kb.count(COLLECTION);
  const openMs = Number(now() - t0) / 1e6;
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  t0 = now();
  await kb.search(COLLECTION, queries[0]!, { topK: 8 });
  const firstSearchMs = Number(now() - t0) / 1e6;
  gc();
  const mirrorBytesPerChunk = (process.memoryUsage().heapUsed - heapBefore) / chunks;
  // The same searches on an in-memory knowledge base holding the same chunks, interleaved.
  const raw = new BetterSqlite3(path, { readonly: true });
  const rows = raw.prepare('SELECT json FROM mem_kb_chunks').pluck().all() as string[];
  raw.close();
  const memory = createInMemoryKnowledgeBase();
  await memory.add(
    COLLECTION,
    rows.map((json) => JSON.parse(json) as KnowledgeChunk),
  );
  const samples: number[] = [];
  const memorySamples: number[] = [];
  for (const query of queries) {
    t0 = now();
    await kb.search(COLLECTION, query, { topK: 8 });
    samples.push(Number(now() - t0));
    t0 = now();
    await memory.search(COLLECTION, query, { topK: 8 });
    memorySamples.push(Number(now() - t0));
  }
  await Promise.all([kb.close(), memory.close()]);
  return {
    chunks,
    openMs,
    firstSearchMs,
    warm: summarizeSamples(samples),
    memory: summarizeSamples(memorySamples),
    mirrorBytesPerChunk,
  };
}

/** `global.gc`, exposed at run time (no flag on the command line needed). */
function exposeGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/** Section (d) of `pnpm bench`: prints its tables and adds `recallContext` to the JSON line. */
export async function runRecallContext(run: BenchRun, dir: string): Promise<void> {
  const interactions = run.quick ? 2_000 : 10_000;
  const { rows, cold } = await benchSqliteRecallContext(dir, interactions, run.quick ? 50 : 200);
  printRecallContext('d', interactions, rows);
  printTable('(d) A new SQLite knowledge base on that file: first search builds the BM25 mirror', [
    {
      chunks: fmtInt(cold.chunks),
      open: fmtMs(cold.openMs),
      'first search (cold)': fmtMs(cold.firstSearchMs),
      'median search (warm)': fmtUs(cold.warm.medianUs),
      'p90 search (warm)': fmtUs(cold.warm.p90Us),
      'in-memory KB: median / p90 search': `${fmtUs(cold.memory.medianUs)} / ${fmtUs(cold.memory.p90Us)}`,
      'mirror heap / chunk': `${fmtInt(cold.mirrorBytesPerChunk)} B`,
    },
  ]);
  const sqlite = rows.at(-1)!.result.context;
  printTable('Targets', [
    {
      measure: `SQLite knowledge base: median context() at ${fmtInt(interactions)} interactions`,
      value: fmtUs(sqlite.medianUs),
      target: '< 1 ms',
    },
  ]);
  run.out.recallContext = {
    interactions,
    rows: recallContextJson(rows),
    cold,
  };
}
