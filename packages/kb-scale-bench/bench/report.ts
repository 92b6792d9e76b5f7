import { fmtInt, fmtMs, printTable } from '@mem/bench-kit';
import { type Kind, LABELS } from './backends.ts';
import type { RedisBuild, SqliteBuild } from './build.ts';
import type { FreshFigure } from './fresh.ts';
import type { Scope, WarmFigure } from './warm.ts';

/** Everything measured at one size. */
export interface SizeResult {
  size: number;
  sqlite: SqliteBuild;
  redis: RedisBuild;
  /** Building the in-memory knowledge base in the bench process (its ingest). */
  memoryIngestMs: number;
  fresh: Map<Kind, FreshFigure>;
  /** The first search of each side in the bench process, after its open (untimed by warm). */
  firstInProcessMs: Map<Kind, number>;
  warm: Map<Kind, Record<Scope, WarmFigure>>;
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
const perChunk = (bytes: number, size: number) => `${fmtInt(bytes / size)} B`;
const rate = (size: number, ms: number) => fmtInt(size / (ms / 1000));

export function printResults(results: readonly SizeResult[]): void {
  printTable(
    'Ingest and size (adds of 1,000 chunks, one session at a time; SQLite: file + WAL as closed / after a checkpoint; Redis: INFO used_memory delta, and MEMORY USAGE of 2 sessions × 200)',
    results.flatMap((r) => [
      {
        chunks: fmtInt(r.size),
        side: LABELS.memory,
        ingest: fmtMs(r.memoryIngestMs),
        'chunks/s': rate(r.size, r.memoryIngestMs),
        bytes: '(heap: see fresh RSS)',
        'bytes/chunk': '',
      },
      {
        chunks: fmtInt(r.size),
        side: LABELS.sqlite,
        ingest: fmtMs(r.sqlite.ingestMs),
        'chunks/s': rate(r.size, r.sqlite.ingestMs),
        bytes: `${mb(r.sqlite.dbBytes + r.sqlite.walBytes)} / ${mb(r.sqlite.checkpointedBytes)}`,
        'bytes/chunk': perChunk(r.sqlite.checkpointedBytes, r.size),
      },
      {
        chunks: fmtInt(r.size),
        side: LABELS.redis,
        ingest: fmtMs(r.redis.ingestMs),
        'chunks/s': rate(r.size, r.redis.ingestMs),
        bytes: `${mb(r.redis.usedMemoryDelta)} / ${mb(r.redis.sampledBytes)} (${fmtInt(r.redis.keys)} keys)`,
        'bytes/chunk': perChunk(r.redis.usedMemoryDelta, r.size),
      },
    ]),
  );
  printTable(
    'First search in a fresh process (open + one search by sessionId, topK 10; median of N children, one session each; RSS added = rss after − before the open). In-memory: building it from the chunks + the search',
    results.flatMap((r) =>
      [...r.fresh].map(([kind, f]) => ({
        chunks: fmtInt(r.size),
        side: LABELS[kind],
        'open + first search': fmtMs(f.medianMs),
        'min … max': `${fmtMs(f.minMs)} … ${fmtMs(f.maxMs)}`,
        'RSS added': mb(f.rssAdded),
        'RSS/chunk': perChunk(f.rssAdded, r.size),
        'first search in bench process': fmtMs(r.firstInProcessMs.get(kind) ?? 0),
        runs: f.runs,
      })),
    ),
  );
  printTable(
    'Warm searches (topK 10; interleaved rounds; by sessionId and by userId = 10 sessions)',
    results.flatMap((r) =>
      [...r.warm].map(([kind, w]) => ({
        chunks: fmtInt(r.size),
        side: LABELS[kind],
        'session p50': fmtMs(w.session.p50Ms),
        'session p99': fmtMs(w.session.p99Ms),
        'user p50': fmtMs(w.user.p50Ms),
        'user p99': fmtMs(w.user.p99Ms),
        hits: `${w.session.meanHits.toFixed(1)} / ${w.user.meanHits.toFixed(1)}`,
        'same top-10 as in-memory': same(w),
        queries: `${w.session.queries} + ${w.user.queries}`,
      })),
    ),
  );
  const at = results.find((r) => r.size === 100_000);
  const sqliteFresh = at?.fresh.get('sqlite');
  const sqliteWarm = at?.warm.get('sqlite');
  if (sqliteFresh !== undefined && sqliteWarm !== undefined) {
    printTable('Issue 25 goals (SQLite, 100,000 chunks)', [
      {
        measure: 'first search, fresh process',
        value: fmtMs(sqliteFresh.medianMs),
        goal: '<= 100 ms',
      },
      { measure: 'RSS added by it', value: mb(sqliteFresh.rssAdded), goal: '<= 100 MB' },
      {
        measure: 'warm search p50 (session)',
        value: fmtMs(sqliteWarm.session.p50Ms),
        goal: '<= 5 ms',
      },
    ]);
  }
}

function same(w: Record<Scope, WarmFigure>): string {
  const { session, user } = w;
  if (session.sameAsMemory === undefined || user.sameAsMemory === undefined) return '';
  return `${(session.sameAsMemory * 100).toFixed(0)} % / ${(user.sameAsMemory * 100).toFixed(0)} %`;
}

const round = (n: number) => Math.round(n * 1000) / 1000;

/** The JSON line's figures for one size. */
export function resultJson(r: SizeResult) {
  const sides = (kinds: Iterable<Kind>, f: (k: Kind) => unknown) =>
    Object.fromEntries([...kinds].map((k) => [k, f(k)]));
  return {
    chunks: r.size,
    ingestMs: {
      memory: round(r.memoryIngestMs),
      sqlite: round(r.sqlite.ingestMs),
      redis: round(r.redis.ingestMs),
    },
    bytes: {
      sqliteDb: r.sqlite.dbBytes,
      sqliteWal: r.sqlite.walBytes,
      sqliteCheckpointed: r.sqlite.checkpointedBytes,
      redisUsedMemoryDelta: r.redis.usedMemoryDelta,
      redisSampled: Math.round(r.redis.sampledBytes),
      redisKeys: r.redis.keys,
    },
    fresh: sides(r.fresh.keys(), (k) => {
      const f = r.fresh.get(k)!;
      return {
        medianMs: round(f.medianMs),
        minMs: round(f.minMs),
        maxMs: round(f.maxMs),
        rssAdded: f.rssAdded,
        runs: f.runs,
      };
    }),
    firstInProcessMs: sides(r.firstInProcessMs.keys(), (k) => round(r.firstInProcessMs.get(k)!)),
    warm: sides(r.warm.keys(), (k) => {
      const w = r.warm.get(k)!;
      const fig = (x: WarmFigure) => ({
        p50Ms: round(x.p50Ms),
        p99Ms: round(x.p99Ms),
        meanHits: round(x.meanHits),
        ...(x.sameAsMemory === undefined ? {} : { sameAsMemory: round(x.sameAsMemory) }),
      });
      return { session: fig(w.session), user: fig(w.user) };
    }),
  };
}
