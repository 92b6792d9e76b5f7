import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { fmtInt, fmtMs, fmtUs, median, now, printTable, summarizeSamples } from '@mem/bench-kit';
import type { CountedMessage, Store } from '@mem/core/backend';
import { countedTurns, meanJsonBytes } from '@mem/core/testing';
import BetterSqlite3, { type Database } from 'better-sqlite3';
import { createSqliteStore, type SqliteSynchronous } from '../src/index.ts';
import { benchRecallContext } from './recall-context.ts';

/**
 * `pnpm bench` for @mem/store-sqlite, side by side in one run (interleaved rounds):
 * (a) append one turn (4 messages, ~400 bytes of JSON each), one durable commit, vs the raw
 *     floor: better-sqlite3 inserting the same rows in a bare loop, one transaction per turn,
 *     same journal (WAL) and `synchronous` setting — for NORMAL (the default) and FULL;
 * (b) in a fresh process: build the context (max_tokens 4,000) on sessions of 1k/10k/100k
 *     interactions, the raw tail read (200 newest messages), and loading a whole 10k history;
 * (c) bytes written per turn (WAL bytes, database growth) at 100, 1k and 10k interactions;
 * (d) context() with retrieval at 10,000 interactions, the in-memory knowledge base vs the SQLite
 *     one, and a new SQLite knowledge base's first search (it builds the BM25 mirror).
 * `--quick` shrinks the sizes; `--only=recall-context` runs (d) alone.
 *
 * (a) runs 10 interleaved rounds per side (after a discarded warm-up of 100 turns per side): on
 * a shared, busy machine a single slow round (another process, a WAL checkpoint's fsync) moved
 * the store / raw ratio by 20+ points with 5 rounds of 100 turns.
 */
const quick = process.argv.includes('--quick');
const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);
const dir = mkdtempSync(join(tmpdir(), 'mem-sqlite-bench-'));
const out: Record<string, unknown> = { bench: '@mem/store-sqlite', node: process.version, quick };

/** A 10,000-interaction conversation, counted once; longer sessions repeat it with fresh ids. */
const base = countedTurns(quick ? 2_000 : 10_000);
const turnAt = (i: number): CountedMessage[] => {
  const turn = base[i % base.length]!;
  const lap = Math.floor(i / base.length);
  return lap === 0 ? turn : turn.map((m) => ({ ...m, id: `${m.id}-${lap}` }));
};
const bytesPerMessage = meanJsonBytes(base);

async function prefill(store: Store, sessionId: string, interactions: number): Promise<void> {
  const batch = 250;
  for (let i = 0; i < interactions; i += batch) {
    const messages: CountedMessage[] = [];
    for (let t = i; t < Math.min(interactions, i + batch); t++) messages.push(...turnAt(t));
    await store.append(sessionId, messages, { idempotencyKey: `prefill-${i}` });
  }
}

// ---------------------------------------------------------------- (a) append one turn
interface AppendSide {
  label: string;
  synchronous: SqliteSynchronous;
  kind: 'store' | 'raw';
  appendTurn: (i: number) => Promise<void> | void;
  samples: number[];
  elapsedNs: number;
  turns: number;
}

function rawDatabase(path: string, synchronous: SqliteSynchronous): Database {
  const db = new BetterSqlite3(path);
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${synchronous}`);
  db.exec(`CREATE TABLE messages (
    namespace TEXT NOT NULL, session_id TEXT NOT NULL, seq INTEGER NOT NULL, id TEXT NOT NULL,
    token_count INTEGER NOT NULL, json TEXT NOT NULL,
    PRIMARY KEY (namespace, session_id, seq)) WITHOUT ROWID`);
  return db;
}

async function benchAppend(tag: string, rounds: number, perRound: number) {
  const sides: AppendSide[] = [];
  const opened: Array<{ close(): unknown }> = [];
  const total = rounds * perRound;
  // Raw rows are serialized before the timer: the floor is the engine's insert + commit alone.
  const rawRows = Array.from({ length: total }, (_, i) =>
    turnAt(i).map((m) => ({ id: m.id, tokenCount: m.tokenCount, json: JSON.stringify(m) })),
  );
  for (const synchronous of ['NORMAL', 'FULL'] as const) {
    const store = createSqliteStore({
      path: join(dir, `${tag}-append-${synchronous}.db`),
      synchronous,
    });
    opened.push(store);
    await store.info('warm'); // opens the connection and migrates, outside the timer
    sides.push({
      label: `store.append (synchronous=${synchronous})`,
      synchronous,
      kind: 'store',
      appendTurn: async (i) => {
        await store.append('s', turnAt(i), { idempotencyKey: `t${i}` });
      },
      samples: [],
      elapsedNs: 0,
      turns: 0,
    });
    const db = rawDatabase(join(dir, `${tag}-raw-${synchronous}.db`), synchronous);
    opened.push(db);
    const insert = db.prepare(
      'INSERT INTO messages (namespace, session_id, seq, id, token_count, json) VALUES (?, ?, ?, ?, ?, ?)',
    );
    let seq = 0;
    const commitTurn = db.transaction((rows: (typeof rawRows)[number]) => {
      for (const r of rows) insert.run('default', 's', ++seq, r.id, r.tokenCount, r.json);
    });
    sides.push({
      label: `raw better-sqlite3 (synchronous=${synchronous})`,
      synchronous,
      kind: 'raw',
      appendTurn: (i) => commitTurn(rawRows[i]!),
      samples: [],
      elapsedNs: 0,
      turns: 0,
    });
  }
  let next = 0;
  for (let r = 0; r < rounds; r++) {
    for (const side of sides) {
      const start = now();
      for (let k = 0; k < perRound; k++) {
        const t0 = now();
        await side.appendTurn(next + k);
        side.samples.push(Number(now() - t0));
      }
      side.elapsedNs += Number(now() - start);
      side.turns += perRound;
    }
    next += perRound;
  }
  for (const o of opened) await o.close();
  return sides.map((s) => ({
    label: s.label,
    kind: s.kind,
    synchronous: s.synchronous,
    turns: s.turns,
    turnsPerSec: s.turns / (s.elapsedNs / 1e9),
    perTurn: summarizeSamples(s.samples),
  }));
}

// ---------------------------------------------------------------- (c) bytes written per turn
async function benchBytes(sizes: readonly number[], rounds: number, perRound: number) {
  const path = join(dir, 'bytes.db');
  const store = createSqliteStore({ path });
  for (const size of sizes) await prefill(store, `b${size}`, size);
  const probe = new BetterSqlite3(path);
  const pageSize = probe.pragma('page_size', { simple: true }) as number;
  const acc = new Map(sizes.map((s) => [s, { wal: 0, growth: 0, turns: 0 }]));
  const next = new Map(sizes.map((s) => [s, s]));
  for (let r = 0; r < rounds; r++) {
    for (const size of sizes) {
      probe.pragma('wal_checkpoint(TRUNCATE)');
      const pagesBefore = probe.pragma('page_count', { simple: true }) as number;
      const walBefore = statSync(`${path}-wal`).size;
      const from = next.get(size)!;
      for (let i = from; i < from + perRound; i++) {
        await store.append(`b${size}`, turnAt(i), { idempotencyKey: `c${i}` });
      }
      next.set(size, from + perRound);
      const walAfter = statSync(`${path}-wal`).size;
      const pagesAfter = probe.pragma('page_count', { simple: true }) as number;
      const a = acc.get(size)!;
      a.wal += walAfter - walBefore;
      a.growth += (pagesAfter - pagesBefore) * pageSize;
      a.turns += perRound;
    }
  }
  probe.close();
  await store.close();
  return sizes.map((size) => {
    const a = acc.get(size)!;
    return {
      interactions: size,
      turns: a.turns,
      walBytesPerTurn: a.wal / a.turns,
      dbGrowthBytesPerTurn: a.growth / a.turns,
    };
  });
}

// ---------------------------------------------------------------- (b) fresh-process reads
const child = fileURLToPath(new URL('./context-child.ts', import.meta.url));

interface ChildResult {
  mode: string;
  openMs: number;
  callMs: number;
  sinceStartMs: number;
  messages: number;
}

function spawnChild(path: string, sessionId: string, mode: string) {
  return new Promise<ChildResult & { processMs: number }>((resolve, reject) => {
    const t0 = performance.now();
    execFile(
      process.execPath,
      [...process.execArgv, child, path, sessionId, mode],
      { maxBuffer: 1 << 20 },
      (error, stdout) => {
        const processMs = performance.now() - t0;
        if (error) return reject(error);
        const line = stdout.trim().split('\n').at(-1) ?? '';
        resolve({ ...(JSON.parse(line) as ChildResult), processMs });
      },
    );
  });
}

async function benchFresh(sizes: readonly number[], fullSize: number, rounds: number) {
  const path = join(dir, 'context.db');
  const store = createSqliteStore({ path });
  const t0 = performance.now();
  for (const size of sizes) await prefill(store, `ctx${size}`, size);
  const prefillMs = performance.now() - t0;
  await store.close();
  const checkpoint = new BetterSqlite3(path);
  checkpoint.pragma('wal_checkpoint(TRUNCATE)');
  checkpoint.close();
  const cases = [
    ...sizes.flatMap((size) => [
      { what: 'engine session.context()', mode: 'context', size },
      { what: "store.read tail (from: 'end', limit: 200)", mode: 'tail', size },
    ]),
    { what: 'store.read whole history', mode: 'full', size: fullSize },
  ];
  const samples = cases.map(() => [] as Array<ChildResult & { processMs: number }>);
  for (let r = 0; r < rounds; r++) {
    for (const [i, c] of cases.entries()) {
      samples[i]!.push(await spawnChild(path, `ctx${c.size}`, c.mode));
    }
  }
  return {
    prefillMs,
    rows: cases.map((c, i) => ({
      what: c.what,
      mode: c.mode,
      interactions: c.size,
      runs: samples[i]!.length,
      messages: samples[i]![0]!.messages,
      openMs: median(samples[i]!.map((s) => s.openMs)),
      callMs: median(samples[i]!.map((s) => s.callMs)),
      callMsMax: Math.max(...samples[i]!.map((s) => s.callMs)),
      processMs: median(samples[i]!.map((s) => s.processMs)),
    })),
  };
}

// ---------------------------------------------------------------- (d) context() with retrieval
async function runRecallContext(): Promise<void> {
  const interactions = quick ? 2_000 : 10_000;
  const { rows, cold } = await benchRecallContext(dir, interactions, quick ? 50 : 200);
  printTable(
    `(d) context() with retrieval, ${fmtInt(interactions)} interactions (summarizer + knowledge base, search_mode always)`,
    rows.map(({ knowledgeBase, result }) => ({
      'knowledge base': knowledgeBase,
      'median context()': fmtUs(result.context.medianUs),
      'p90 context()': fmtUs(result.context.p90Us),
      'mean hits': result.meanHits.toFixed(2),
      'mean knowledge tokens': fmtInt(result.meanKnowledgeTokens),
      calls: result.context.runs,
      replay: fmtMs(result.replayMs),
    })),
  );
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
  out.recallContext = {
    interactions,
    rows: rows.map(({ knowledgeBase, result }) => ({
      knowledgeBase,
      medianUs: result.context.medianUs,
      p90Us: result.context.p90Us,
      meanHits: result.meanHits,
      replayMs: result.replayMs,
    })),
    cold,
  };
}

// ---------------------------------------------------------------- run
/** (a), (b) and (c). */
async function runStoreSections(): Promise<void> {
  const appendRounds = 10;
  const perRound = quick ? 100 : 300;
  await benchAppend('warm', 1, 100); // warm-up: JIT, files; discarded
  const append = await benchAppend('run', appendRounds, perRound);
  printTable(
    `(a) Append one turn (4 messages, ~${Math.round(bytesPerMessage)} B JSON each), one commit per turn, WAL`,
    append.map((a) => ({
      implementation: a.label,
      'turns/s': fmtInt(a.turnsPerSec),
      'median / turn': fmtUs(a.perTurn.medianUs),
      'p90 / turn': fmtUs(a.perTurn.p90Us),
      turns: a.turns,
    })),
  );
  const ratios = (['NORMAL', 'FULL'] as const).map((synchronous) => {
    const store = append.find((a) => a.kind === 'store' && a.synchronous === synchronous)!;
    const raw = append.find((a) => a.kind === 'raw' && a.synchronous === synchronous)!;
    return { synchronous, ratio: store.turnsPerSec / raw.turnsPerSec };
  });

  const sizes = quick ? [1_000, 10_000] : [1_000, 10_000, 100_000];
  const fresh = await benchFresh(sizes, 10_000, quick ? 2 : 5);
  printTable(
    '(b) Fresh process: open = connect/open the database first; call = the call after it; process = spawn to exit',
    fresh.rows.map((f) => ({
      call: f.what,
      interactions: fmtInt(f.interactions),
      'messages returned': f.messages,
      'median open': fmtMs(f.openMs),
      'median call': fmtMs(f.callMs),
      'max call': fmtMs(f.callMsMax),
      'median process total': fmtMs(f.processMs),
      runs: f.runs,
    })),
  );
  const ctx = fresh.rows.filter((f) => f.mode === 'context');
  const tail = fresh.rows.filter((f) => f.mode === 'tail');
  const growth = (rows: typeof ctx) => rows.at(-1)!.callMs / rows[0]!.callMs;

  const bytes = await benchBytes([100, 1_000, 10_000], 3, quick ? 20 : 50);
  printTable(
    '(c) Bytes written per appended turn (synchronous=NORMAL; WAL truncated before each batch)',
    bytes.map((b) => ({
      interactions: fmtInt(b.interactions),
      'WAL bytes / turn': fmtInt(b.walBytesPerTurn),
      'database growth / turn': fmtInt(b.dbGrowthBytesPerTurn),
      turns: b.turns,
    })),
  );
  const walSpread =
    Math.max(...bytes.map((b) => b.walBytesPerTurn)) /
    Math.min(...bytes.map((b) => b.walBytesPerTurn));

  printTable('Targets', [
    ...ratios.map((r) => ({
      measure: `store / raw turns per s (synchronous=${r.synchronous})`,
      value: `${(r.ratio * 100).toFixed(0)} %`,
      target: '>= 50 %',
    })),
    ...ctx.map((c) => ({
      measure: `fresh-process context() at ${fmtInt(c.interactions)} interactions`,
      value: fmtMs(c.callMs),
      target: '< 10 ms',
    })),
    {
      measure: `context() growth, ${fmtInt(sizes.at(-1)!)} / 1,000`,
      value: growth(ctx).toFixed(1),
      target: '~1 (no growth)',
    },
    {
      measure: `raw tail read growth, ${fmtInt(sizes.at(-1)!)} / 1,000`,
      value: growth(tail).toFixed(2),
      target: '~1 (no growth)',
    },
    {
      measure: 'WAL bytes per turn, max / min over 100..10k',
      value: walSpread.toFixed(2),
      target: '~1 (constant)',
    },
  ]);

  out.bytesPerMessage = bytesPerMessage;
  out.append = append.map((a) => ({
    implementation: a.label,
    turnsPerSec: a.turnsPerSec,
    medianUs: a.perTurn.medianUs,
    p90Us: a.perTurn.p90Us,
    turns: a.turns,
  }));
  out.appendRatio = Object.fromEntries(ratios.map((r) => [r.synchronous, r.ratio]));
  out.fresh = fresh.rows.map((f) => ({
    mode: f.mode,
    interactions: f.interactions,
    messages: f.messages,
    openMs: f.openMs,
    callMs: f.callMs,
    processMs: f.processMs,
    runs: f.runs,
  }));
  out.contextGrowth = growth(ctx);
  out.tailGrowth = growth(tail);
  out.prefillMs = fresh.prefillMs;
  out.bytes = bytes;
  out.walSpread = walSpread;
}

try {
  if (only !== 'recall-context') await runStoreSections();
  await runRecallContext();
  console.log(JSON.stringify(out));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
