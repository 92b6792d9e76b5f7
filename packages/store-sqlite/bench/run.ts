import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type AppendSide,
  runStoreSections,
  type StoreBenchBackend,
  startBench,
  turnByTurn,
} from '@mem/store-bench';
import BetterSqlite3, { type Database } from 'better-sqlite3';
import { createSqliteStore, type SqliteSynchronous } from '../src/index.ts';
import { runEngineOverhead } from './engine-overhead.ts';
import { runKbDelete } from './kb-delete.ts';
import { runPerRequest } from './per-request.ts';
import { runRecallContext } from './recall-context.ts';

/**
 * `pnpm bench` for @mem/store-sqlite, side by side in one run (interleaved rounds; the shared
 * sections of @mem/store-bench):
 * (a) append one turn (4 messages, ~400 bytes of JSON each), one durable commit, vs the raw
 *     floor: better-sqlite3 inserting the same rows in a bare loop, one transaction per turn,
 *     same journal (WAL) and `synchronous` setting — for NORMAL (the default) and FULL;
 * (b) in a fresh process: build the context (max_tokens 4,000) on sessions of 1k/10k/100k
 *     interactions, the raw tail read (200 newest messages), and loading a whole 10k history;
 * (c) bytes written per turn (WAL bytes, database growth) at 100, 1k and 10k interactions;
 * (d) context() with retrieval at 10,000 interactions, the in-memory knowledge base vs the SQLite
 *     one, and a new SQLite knowledge base's first search (it builds the BM25 mirror).
 * (e) a per-request engine (open store + engine, one turn, close) vs a turn on an engine kept
 *     open, at 1k and 100k interactions (`--sizes=` picks others), default store and
 *     `reuseConnection: true`, with where a cold turn's time goes; then the same per fresh
 *     process (`--no-fresh` skips it; see per-request.ts).
 * (f) the engine's own work on a warm append: `session.append` against counting the same
 *     messages and `store.append` of them, interleaved (see engine-overhead.ts).
 * (g) a compaction's delete in the SQLite knowledge base: by the summary_id index vs by scanning
 *     the session's chunks, at 1k and 10k chunks (see kb-delete.ts).
 * `--quick` shrinks the sizes; `--only=recall-context`, `--only=per-request`,
 * `--only=engine-overhead` or `--only=kb-delete` runs (d), (e), (f) or (g) alone.
 *
 * (a) runs 10 interleaved rounds per side (after a discarded warm-up of 100 turns per side): on
 * a shared, busy machine a single slow round (another process, a WAL checkpoint's fsync) moved
 * the store / raw ratio by 20+ points with 5 rounds of 100 turns.
 */
const run = startBench('@mem/store-sqlite');
const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);
const dir = mkdtempSync(join(tmpdir(), 'mem-sqlite-bench-'));
const SYNCHRONOUS = ['NORMAL', 'FULL'] as const;

interface SqliteSide extends AppendSide {
  synchronous: SqliteSynchronous;
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

/** (a): the store and the raw floor, for each `synchronous` setting. */
async function openAppendSides(tag: string, total: number) {
  const sides: SqliteSide[] = [];
  const opened: Array<{ close(): unknown }> = [];
  // Raw rows are serialized before the timer: the floor is the engine's insert + commit alone.
  const rawRows = Array.from({ length: total }, (_, i) =>
    run.turnAt(i).map((m) => ({ id: m.id, tokenCount: m.tokenCount, json: JSON.stringify(m) })),
  );
  for (const synchronous of SYNCHRONOUS) {
    const store = createSqliteStore({
      path: join(dir, `${tag}-append-${synchronous}.db`),
      synchronous,
    });
    opened.push(store);
    await store.info('warm'); // opens the connection and migrates, outside the timer
    sides.push({
      label: `store.append (synchronous=${synchronous})`,
      kind: 'store',
      synchronous,
      appendTurns: turnByTurn(async (i) => {
        await store.append('s', run.turnAt(i), { idempotencyKey: `t${i}` });
      }),
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
      kind: 'raw',
      synchronous,
      appendTurns: turnByTurn((i) => commitTurn(rawRows[i]!)),
    });
  }
  return {
    sides,
    close: async () => {
      for (const o of opened) await o.close();
    },
  };
}

const checkpoint = (path: string) => {
  const db = new BetterSqlite3(path);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
};
const contextPath = join(dir, 'context.db');
const bytesPath = join(dir, 'bytes.db');

const backend: StoreBenchBackend<SqliteSide> = {
  append: {
    title: 'one commit per turn, WAL',
    warmUpTurns: 100,
    rounds: 10,
    open: openAppendSides,
    targets: (rows) =>
      ratios(rows).map((r) => ({
        measure: `store / raw turns per s (synchronous=${r.synchronous})`,
        value: `${(r.ratio * 100).toFixed(0)} %`,
        target: '>= 50 %',
      })),
    json: (rows) => ({
      appendRatio: Object.fromEntries(ratios(rows).map((r) => [r.synchronous, r.ratio])),
    }),
  },
  fresh: {
    title:
      '(b) Fresh process: open = connect/open the database first; call = the call after it; process = spawn to exit',
    child: new URL('./context-child.ts', import.meta.url),
    place: contextPath,
    openStore: () => createSqliteStore({ path: contextPath }),
    afterPrefill: () => checkpoint(contextPath),
    contextTarget: '< 10 ms',
    growthDigits: 1,
  },
  bytes: {
    title:
      '(c) Bytes written per appended turn (synchronous=NORMAL; WAL truncated before each batch)',
    openStore: () => createSqliteStore({ path: bytesPath }),
    openProbe: () => {
      const probe = new BetterSqlite3(bytesPath);
      const pageSize = probe.pragma('page_size', { simple: true }) as number;
      return {
        beforeBatch: () => {
          probe.pragma('wal_checkpoint(TRUNCATE)');
        },
        read: () => ({
          walBytesPerTurn: statSync(`${bytesPath}-wal`).size,
          dbGrowthBytesPerTurn: (probe.pragma('page_count', { simple: true }) as number) * pageSize,
        }),
        close: () => {
          probe.close();
        },
      };
    },
    columns: [
      { key: 'walBytesPerTurn', column: 'WAL bytes / turn' },
      { key: 'dbGrowthBytesPerTurn', column: 'database growth / turn' },
    ],
    spread: {
      key: 'walBytesPerTurn',
      json: 'walSpread',
      measure: 'WAL bytes per turn, max / min over 100..10k',
    },
  },
};

function ratios(rows: ReadonlyArray<{ side: SqliteSide; turnsPerSec: number }>) {
  return SYNCHRONOUS.map((synchronous) => {
    const rate = (kind: string) =>
      rows.find((a) => a.side.kind === kind && a.side.synchronous === synchronous)!.turnsPerSec;
    return { synchronous, ratio: rate('store') / rate('raw') };
  });
}

try {
  if (only === undefined) await runStoreSections(run, backend);
  if (only === undefined || only === 'recall-context') await runRecallContext(run, dir);
  if (only === undefined || only === 'per-request') await runPerRequest(run, dir);
  if (only === undefined || only === 'engine-overhead') await runEngineOverhead(run);
  if (only === undefined || only === 'kb-delete') await runKbDelete(run, dir);
  console.log(JSON.stringify(run.out));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
