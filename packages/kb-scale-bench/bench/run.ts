import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  fill,
  KINDS,
  type Kind,
  knowledgeBaseSearcher,
  openKnowledgeBase,
  openSearcher,
  type Searcher,
} from './backends.ts';
import { buildRedis, buildSqlite } from './build.ts';
import { benchQueries } from './dialogue-chunks.ts';
import { benchFresh } from './fresh.ts';
import { startRedisServer } from './redis-server.ts';
import { printResults, resultJson, type SizeResult } from './report.ts';
import { benchWarm } from './warm.ts';

/**
 * `pnpm bench` for knowledge at scale (issue 25): knowledge bases of 10k / 100k (/ 1M) chunks
 * of dialogue text (three turns a chunk, 200 sessions, 20 users of 10 sessions; see
 * dialogue-chunks.ts), side by side in one run: in-memory, SQLite (a file under a temp dir)
 * and Redis (a private redis-server on a free 127.0.0.1 port, stopped at the end), beside the
 * floor: SQLite's own FTS5 bm25() on the same file (fts-floor.ts). Per size: (1) ingest time
 * and bytes (file + WAL; Redis used_memory); (2) the first search in a fresh process (open +
 * search, RSS added; children interleaved, median); (3) warm searches by session and by user,
 * p50 / p99, in interleaved rounds. Each store is built once per size and reused by every
 * measure. Flags: `--sizes=10000,100000,1000000`, `--quick` (2,000 chunks, few runs),
 * `--fresh-runs=N` (5), `--queries=N` per scope (200), `--rounds=N` (10).
 */
const flag = (name: string) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const quick = process.argv.includes('--quick');
const sizes = (flag('sizes') ?? (quick ? '2000' : '10000,100000')).split(',').map(Number);
const freshRuns = Number(flag('fresh-runs') ?? (quick ? 2 : 5));
const queries = Number(flag('queries') ?? (quick ? 40 : 200));
const rounds = Number(flag('rounds') ?? (quick ? 4 : 10));
if (sizes.some((s) => !Number.isInteger(s) || s < 200)) {
  throw new Error('--sizes: integers of at least 200 (one chunk per session), comma-separated');
}

/** The commit measured, and whether the measured packages differ from it in the work tree. */
function commit(): { commit: string; dirty: boolean | 'unknown' } {
  const git = (...args: string[]) =>
    execFileSync('git', args, { encoding: 'utf8', stdio: 'pipe' }).trim();
  try {
    const packages = ['core', 'store-sqlite', 'store-redis'].map((p) => `../${p}/src`);
    return {
      commit: git('rev-parse', 'HEAD'),
      dirty: git('status', '--porcelain', '--', ...packages) !== '',
    };
  } catch {
    return { commit: process.env.KB_SCALE_COMMIT ?? 'unknown', dirty: 'unknown' };
  }
}

const log = (line: string) => console.error(`[kb-scale-bench] ${line}`);

/** Opens every side on the built stores; the first search of each is timed apart, untimed by warm. */
async function openWarm(size: number, places: { sqlitePath: string; redisUrl: string }) {
  const searchers = new Map<Kind, Searcher>();
  const firstInProcessMs = new Map<Kind, number>();
  const memory = openKnowledgeBase('memory', places);
  let t0 = performance.now();
  await fill(memory, size);
  const memoryIngestMs = performance.now() - t0;
  const [probe] = benchQueries(size, 1, 'session', 3);
  for (const kind of KINDS) {
    t0 = performance.now();
    const searcher =
      kind === 'memory'
        ? knowledgeBaseSearcher(memory, size)
        : await openSearcher(kind, size, places);
    await searcher.search(probe!);
    firstInProcessMs.set(kind, performance.now() - t0);
    searchers.set(kind, searcher);
  }
  return { searchers, firstInProcessMs, memoryIngestMs };
}

// Taken at the start: the code this process runs (children spawned later load the tree then).
const measured = commit();
const dir = mkdtempSync(join(tmpdir(), 'mem-kb-scale-'));
const redis = await startRedisServer(dir);
const results: SizeResult[] = [];
try {
  for (const size of sizes) {
    const places = { sqlitePath: join(dir, `kb-${size}.db`), redisUrl: redis.url };
    log(`${size} chunks: building SQLite`);
    const sqlite = await buildSqlite(size, places);
    log(`${size} chunks: SQLite built in ${(sqlite.ingestMs / 1000).toFixed(1)} s; building Redis`);
    const redisBuild = await buildRedis(size, places);
    log(
      `${size} chunks: Redis built in ${(redisBuild.ingestMs / 1000).toFixed(1)} s; fresh processes`,
    );
    const fresh = await benchFresh(KINDS, size, places, freshRuns);
    log(`${size} chunks: warm searches`);
    const { searchers, firstInProcessMs, memoryIngestMs } = await openWarm(size, places);
    let warm: SizeResult['warm'];
    try {
      warm = await benchWarm(searchers, size, queries, rounds);
    } finally {
      for (const s of searchers.values()) await s.close();
    }
    results.push({
      size,
      sqlite,
      redis: redisBuild,
      memoryIngestMs,
      fresh,
      firstInProcessMs,
      warm,
    });
  }
  printResults(results);
  console.log(
    JSON.stringify({
      bench: '@mem/kb-scale-bench',
      node: process.version,
      quick,
      ...measured,
      loadavg: loadavg().map((l) => Math.round(l * 100) / 100),
      settings: { freshRuns, queries, rounds, sessions: 200, users: 20, topK: 10 },
      sizes: results.map(resultJson),
    }),
  );
} finally {
  await redis.stop();
  rmSync(dir, { recursive: true, force: true });
}
