import { fmtInt, fmtMs, median, printTable } from '@mem/bench-kit';
import type { KnowledgeBase, KnowledgeChunk } from '@mem/core/backend';
import type { BenchRun } from '@mem/store-bench';
import { knowledgeChunk } from '@mem/store-test-suite';
import { Redis } from 'ioredis';
import { KB_ADD_BASELINE, KB_DELETE_BASELINE } from '../src/__fixtures__/kb-baseline-lua.ts';
import { createRedisKnowledgeBase, kbKeys } from '../src/index.ts';
import { addArguments } from '../src/redis-kb-add-arguments.ts';
import { runKbScript } from '../src/redis-kb-scripts.ts';

const WORDS = ['deploy', 'invoice', 'Lisbon', 'refund', 'latency', 'budget', 'quota', 'staging'];
/** A query of every word of the corpus (each term in every chunk: the longest postings). */
const QUERY = WORDS.join(' ');

/** ~120 words of chunk text, different per `i`. */
function text(i: number): string {
  return Array.from({ length: 120 }, (_, k) => WORDS[(i * 7 + k * 3) % WORDS.length]).join(' ');
}

/** Bytes the server's append-only file holds now (`INFO persistence`). */
async function aofBytes(client: Redis): Promise<number> {
  const info = await client.info('persistence');
  return Number(/aof_current_size:(\d+)/.exec(info)?.[1] ?? Number.NaN);
}

/** Server time of the script calls since the last `CONFIG RESETSTAT` (commandstats), in ms. */
async function scriptMs(client: Redis): Promise<number> {
  const stats = await client.info('commandstats');
  const usec = /cmdstat_evalsha:calls=\d+,usec=(\d+)/.exec(stats)?.[1];
  return Number(usec ?? Number.NaN) / 1000;
}

/** How one side adds chunks to, and deletes by summary id from, session `s1` of a collection. */
interface Side {
  label: string;
  add(collection: string, chunks: KnowledgeChunk[]): Promise<void>;
  deleteSummary(collection: string, summaryId: string): Promise<number>;
  /** The side's session, searched (BM25, top 5) by the current client. */
  search(collection: string, query: string): Promise<unknown>;
}

/** The scripts before the summary index (`__fixtures__/kb-baseline-lua.ts`), on their 7 keys. */
function baselineSide(client: Redis, reader: KnowledgeBase): Side {
  const keysOf = (collection: string) => kbKeys('mem', 'kbbase', collection, 's1').slice(0, 7);
  return {
    label: 'previous scripts (metadata scan, gsub)',
    add: async (collection, chunks) => {
      const args = chunks.flatMap((chunk) => addArguments(chunk, ''));
      await runKbScript(client, KB_ADD_BASELINE, keysOf(collection), ['', chunks.length, ...args]);
    },
    search: (collection, query) => reader.search(collection, query, { topK: 5, sessionId: 's1' }),
    deleteSummary: async (collection, summaryId) =>
      Number(
        await runKbScript(client, KB_DELETE_BASELINE, keysOf(collection), [
          'match',
          0,
          1,
          JSON.stringify(summaryId),
        ]),
      ),
  };
}

function currentSide(kb: KnowledgeBase): Side {
  return {
    label: 'current (summary index)',
    add: (collection, chunks) => kb.add(collection, chunks),
    search: (collection, query) => kb.search(collection, query, { topK: 5, sessionId: 's1' }),
    deleteSummary: (collection, summaryId) =>
      kb.delete(collection, { sessionId: 's1', summaryIds: [summaryId] }),
  };
}

/**
 * (e) What a compaction's `delete` costs the Redis knowledge base: a session holding `size`
 * interaction chunks; per round one summary chunk is added, then deleted by `summaryIds` (what
 * the engine sends when a newer summary folds it in). Wall time per delete and the script's
 * server time (`INFO commandstats`, evalsha usec per call): while a script runs, the server
 * serves no other client. Also the server time of adding that one chunk: each of its terms'
 * posting strings is read and rewritten whole, and written whole to the append-only file (its
 * growth per add and per delete: `aof_current_size`, what a replica is sent too). The previous scripts (every chunk's delete
 * metadata read, postings rewritten with `gsub`) run beside the current ones on their own
 * session of the same size, in interleaved rounds (order reversed every other round). Last, a
 * search (top 5, this session) for every word of the corpus, by the current client on each
 * side's session: on the previous side's each term's postings are one field (the layout before
 * blocks), on the current side an open block and sealed ones. Every term is in every chunk and
 * all are scored, so both read the same entries (the worst case for blocks).
 */
export async function runKbDelete(run: BenchRun, url: string): Promise<void> {
  const sizes = run.quick ? [1_000] : [1_000, 10_000];
  const rounds = run.quick ? 6 : 16;
  const client = new Redis(url);
  const kb = createRedisKnowledgeBase({ client, namespace: 'kbdelete' });
  const reader = createRedisKnowledgeBase({ client, namespace: 'kbbase' });
  const sides = [baselineSide(client, reader), currentSide(kb)];
  const rows: Array<Record<string, string>> = [];
  const json: Record<string, Record<string, unknown>> = {};
  try {
    for (const size of sizes) {
      const collection = `bench-${size}`;
      for (const side of sides) {
        for (let i = 0; i < size; i += 250) {
          const batch: KnowledgeChunk[] = [];
          for (let k = i; k < Math.min(size, i + 250); k++) {
            batch.push(knowledgeChunk(`t${k}:0`, text(k), { messageIds: [`m${k}`] }));
          }
          await side.add(collection, batch);
        }
      }
      const times = sides.map(() => ({
        wall: [] as number[],
        server: [] as number[],
        add: [] as number[],
        addAof: [] as number[],
        deleteAof: [] as number[],
        read: [] as number[],
      }));
      for (let r = 0; r < rounds; r++) {
        const order = r % 2 === 0 ? [0, 1] : [1, 0];
        for (const s of order) {
          const side = sides[s]!;
          const t = times[s]!;
          const summaryId = `S${r}`;
          await client.config('RESETSTAT');
          const a0 = await aofBytes(client);
          await side.add(collection, [knowledgeChunk(`${summaryId}:0`, text(r), { summaryId })]);
          t.add.push(await scriptMs(client));
          const a1 = await aofBytes(client);
          t.addAof.push(a1 - a0);
          await client.config('RESETSTAT');
          const t0 = performance.now();
          const removed = await side.deleteSummary(collection, summaryId);
          t.wall.push(performance.now() - t0);
          if (removed !== 1) throw new Error(`kb-delete bench: removed ${removed} chunks, not 1`);
          t.server.push(await scriptMs(client));
          t.deleteAof.push((await aofBytes(client)) - a1);
          const r0 = performance.now();
          await side.search(collection, QUERY);
          t.read.push(performance.now() - r0);
        }
      }
      json[size] = {};
      for (const [s, side] of sides.entries()) {
        const t = times[s]!;
        rows.push({
          'chunks in the session': fmtInt(size),
          scripts: side.label,
          'delete (wall)': fmtMs(median(t.wall)),
          'script server time': fmtMs(median(t.server)),
          'add of that chunk: script server time': fmtMs(median(t.add)),
          'AOF bytes: add / delete': `${fmtInt(median(t.addAof))} / ${fmtInt(median(t.deleteAof))}`,
          'search (wall)': fmtMs(median(t.read)),
        });
        json[size]![s === 0 ? 'previous' : 'current'] = {
          wallMs: median(t.wall),
          serverMs: median(t.server),
          addServerMs: median(t.add),
          addAofBytes: median(t.addAof),
          deleteAofBytes: median(t.deleteAof),
          searchMs: median(t.read),
        };
      }
      const [before, after] = times as [(typeof times)[0], (typeof times)[0]];
      json[size]!.deleteServerRatio = median(after.server) / median(before.server);
      json[size]!.addServerRatio = median(after.add) / median(before.add);
    }
  } finally {
    await kb.close();
    await reader.close();
    client.disconnect();
  }
  printTable(
    `(e) Redis knowledge base: a compaction's delete by summary id, medians of ${rounds} interleaved rounds`,
    rows,
  );
  printTable(
    '(e) current / previous scripts, server time',
    Object.entries(json).map(([size, r]) => ({
      'chunks in the session': fmtInt(Number(size)),
      'delete by summary id': `${(r.deleteServerRatio as number).toFixed(3)}x`,
      'add of one chunk': `${(r.addServerRatio as number).toFixed(3)}x`,
    })),
  );
  run.out.kbDelete = json;
}
