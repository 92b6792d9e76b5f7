import { join } from 'node:path';
import { fmtInt, fmtMs, median, printTable } from '@mem/bench-kit';
import type { KnowledgeChunk } from '@mem/core/backend';
import type { BenchRun } from '@mem/store-bench';
import { knowledgeChunk } from '@mem/store-test-suite';
import { createSqliteKnowledgeBase } from '../src/index.ts';

const WORDS = [
  'deploy',
  'invoice',
  'Lisbon',
  'refund',
  'latency',
  'budget',
  'quota',
  'staging',
  'alert',
  'token',
  'snapshot',
  'migration',
  'order',
  'shipment',
];

/** ~120 words of chunk text, different per `i`. */
function text(i: number): string {
  return Array.from({ length: 120 }, (_, k) => WORDS[(i * 7 + k * 3) % WORDS.length]).join(' ');
}

/**
 * (g) What a compaction's `delete` costs the SQLite knowledge base: a session holding `size`
 * interaction chunks, one summary's two chunks added and deleted by `summaryIds` per round.
 * "index" is the delete as the engine sends it (found through the summary_id index); "scan" is
 * the same filter plus `messageIds: []` (nothing more matches), which takes the path every other
 * filter takes: reading and parsing each chunk of the session. Interleaved rounds, one file.
 */
export async function runKbDelete(run: BenchRun, dir: string): Promise<void> {
  const sizes = run.quick ? [1_000] : [1_000, 10_000];
  const rounds = run.quick ? 6 : 20;
  const rows: Array<Record<string, string | number>> = [];
  const json: Record<string, unknown> = {};
  for (const size of sizes) {
    const kb = createSqliteKnowledgeBase({ path: join(dir, `kb-delete-${size}.db`) });
    for (let i = 0; i < size; i += 500) {
      const batch: KnowledgeChunk[] = [];
      for (let k = i; k < Math.min(size, i + 500); k++) {
        batch.push(knowledgeChunk(`t${k}:0`, text(k), { messageIds: [`m${k}`] }));
      }
      await kb.add('bench', batch);
    }
    const times = { index: [] as number[], scan: [] as number[] };
    for (let r = 0; r < rounds; r++) {
      for (const side of r % 2 === 0
        ? (['index', 'scan'] as const)
        : (['scan', 'index'] as const)) {
        const summaryId = `S${r}-${side}`;
        await kb.add('bench', [
          knowledgeChunk(`${summaryId}:0`, text(r), { summaryId }),
          knowledgeChunk(`${summaryId}:1`, text(r + 1), { summaryId }),
        ]);
        const filter =
          side === 'index'
            ? { sessionId: 's1', summaryIds: [summaryId] }
            : { sessionId: 's1', summaryIds: [summaryId], messageIds: [] };
        const t0 = performance.now();
        const removed = await kb.delete('bench', filter);
        times[side].push(performance.now() - t0);
        if (removed !== 2) throw new Error(`kb-delete bench: removed ${removed} chunks, not 2`);
      }
    }
    await kb.close();
    const index = median(times.index);
    const scan = median(times.scan);
    rows.push({
      'chunks in the session': fmtInt(size),
      'delete by summary id (index)': fmtMs(index),
      'same delete by scanning': fmtMs(scan),
      'scan / index': `${(scan / index).toFixed(1)}x`,
    });
    json[size] = { indexMs: index, scanMs: scan, ratio: scan / index };
  }
  printTable(
    `(g) SQLite knowledge base: a compaction's delete (one summary's 2 chunks), medians of ${rounds} interleaved rounds`,
    rows,
  );
  run.out.kbDelete = json;
}
