import { fmtInt, fmtMs, median, printTable } from '@mem/bench-kit';
import type { KnowledgeChunk } from '@mem/core/backend';
import type { BenchRun } from '@mem/store-bench';
import { knowledgeChunk } from '@mem/store-test-suite';
import { Redis } from 'ioredis';
import { createRedisKnowledgeBase } from '../src/index.ts';

const WORDS = ['deploy', 'invoice', 'Lisbon', 'refund', 'latency', 'budget', 'quota', 'staging'];

/** ~120 words of chunk text, different per `i`. */
function text(i: number): string {
  return Array.from({ length: 120 }, (_, k) => WORDS[(i * 7 + k * 3) % WORDS.length]).join(' ');
}

/** Server time of the script calls since the last `CONFIG RESETSTAT` (commandstats), in ms. */
async function scriptMs(client: Redis): Promise<number> {
  const stats = await client.info('commandstats');
  const usec = /cmdstat_evalsha:calls=\d+,usec=(\d+)/.exec(stats)?.[1];
  return Number(usec ?? Number.NaN) / 1000;
}

/**
 * (e) What a compaction's `delete` costs the Redis knowledge base: a session holding `size`
 * interaction chunks; per round one summary chunk is added, then deleted by `summaryIds` (what
 * the engine sends when a newer summary folds it in). Wall time per delete and the script's
 * server time (`INFO commandstats`, evalsha usec per call): while a script runs, the server
 * serves no other client. Baseline for a summary-id index (the script reads every chunk's
 * delete metadata of the session today). Also the server time of adding that one chunk: each
 * of its terms' posting strings is read and rewritten whole.
 */
export async function runKbDelete(run: BenchRun, url: string): Promise<void> {
  const sizes = run.quick ? [1_000] : [1_000, 10_000];
  const rounds = run.quick ? 5 : 15;
  const client = new Redis(url);
  const kb = createRedisKnowledgeBase({ client, namespace: 'kbdelete' });
  const rows: Array<Record<string, string>> = [];
  const json: Record<string, unknown> = {};
  try {
    for (const size of sizes) {
      const collection = `bench-${size}`;
      for (let i = 0; i < size; i += 250) {
        const batch: KnowledgeChunk[] = [];
        for (let k = i; k < Math.min(size, i + 250); k++) {
          batch.push(knowledgeChunk(`t${k}:0`, text(k), { messageIds: [`m${k}`] }));
        }
        await kb.add(collection, batch);
      }
      const wall: number[] = [];
      const server: number[] = [];
      const addServer: number[] = [];
      for (let r = 0; r < rounds; r++) {
        const summaryId = `S${r}`;
        await client.config('RESETSTAT');
        await kb.add(collection, [knowledgeChunk(`${summaryId}:0`, text(r), { summaryId })]);
        addServer.push(await scriptMs(client));
        await client.config('RESETSTAT');
        const t0 = performance.now();
        const removed = await kb.delete(collection, { sessionId: 's1', summaryIds: [summaryId] });
        wall.push(performance.now() - t0);
        if (removed !== 1) throw new Error(`kb-delete bench: removed ${removed} chunks, not 1`);
        server.push(await scriptMs(client));
      }
      rows.push({
        'chunks in the session': fmtInt(size),
        'delete (wall)': fmtMs(median(wall)),
        'script server time': fmtMs(median(server)),
        'add of that chunk: script server time': fmtMs(median(addServer)),
      });
      json[size] = {
        wallMs: median(wall),
        serverMs: median(server),
        addServerMs: median(addServer),
      };
    }
  } finally {
    await kb.close();
    client.disconnect();
  }
  printTable(
    `(e) Redis knowledge base: a compaction's delete by summary id, medians of ${rounds} rounds`,
    rows,
  );
  run.out.kbDelete = json;
}
