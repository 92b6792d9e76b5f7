import { execFile } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { fmtInt, fmtMs, fmtUs, median, now, printTable, summarizeSamples } from '@mem/bench-kit';
import type { CountedMessage, Store } from '@mem/core/backend';
import { countedTurns, meanJsonBytes } from '@mem/core/testing';
import { Redis } from 'ioredis';
import {
  assertRedisInstalled,
  freePort,
  killRedis,
  makeDir,
  type RedisProcess,
  removeDir,
  startRedis,
} from '../src/__fixtures__/redis-process.ts';
import { createRedisStore } from '../src/index.ts';

/**
 * `pnpm bench` for @mem/store-redis, side by side in one run (interleaved rounds), against a
 * private redis-server this script starts on a free 127.0.0.1 port and stops at the end:
 * `--appendonly yes --appendfsync everysec` (an acknowledged write is in the AOF within ~1 s;
 * `always` would fsync every write), `--save ''`, and automatic AOF rewrites off
 * (`--auto-aof-rewrite-percentage 0`) so the AOF size measures exactly what each write adds.
 * (a) append one turn (4 messages, ~400 bytes of JSON each) with `store.append` vs the raw
 *     floor: RPUSH of the same bytes, one turn per round trip (redis-benchmark style), and
 *     fully pipelined (every turn of a round in one pipeline);
 * (b) in a fresh process: build the context (max_tokens 4,000) on sessions of 1k/10k/100k
 *     interactions, the raw tail read (200 newest messages), and loading a whole 10k history;
 * (c) AOF bytes per turn (`INFO persistence` aof_current_size) at 100, 1k and 10k interactions.
 * `--quick` shrinks the sizes.
 */
const quick = process.argv.includes('--quick');
const out: Record<string, unknown> = { bench: '@mem/store-redis', node: process.version, quick };

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

async function aofSize(client: Redis): Promise<number> {
  const info = await client.info('persistence');
  const match = /aof_current_size:(\d+)/.exec(info);
  if (match === null) throw new Error('INFO persistence has no aof_current_size (AOF off?)');
  return Number(match[1]);
}

// ---------------------------------------------------------------- (a) append one turn
interface AppendSide {
  label: string;
  kind: 'store' | 'raw' | 'pipelined';
  /** Appends turns [from, from + count) and records per-turn samples where meaningful. */
  appendTurns: (from: number, count: number, samples: number[]) => Promise<void>;
  samples: number[];
  elapsedNs: number;
  turns: number;
}

async function benchAppend(url: string, tag: string, rounds: number, perRound: number) {
  const store = createRedisStore({ url });
  const raw = new Redis(url);
  await store.info('warm'); // connects, outside the timer
  await raw.ping();
  const total = rounds * perRound;
  // Raw values are serialized before the timer: the floor is the server's RPUSH + AOF write.
  const rawValues = Array.from({ length: total }, (_, i) =>
    turnAt(i).map((m) => JSON.stringify(m)),
  );
  const sides: AppendSide[] = [
    {
      label: 'store.append (Lua script, EVALSHA)',
      kind: 'store',
      appendTurns: async (from, count, samples) => {
        for (let i = from; i < from + count; i++) {
          const t0 = now();
          await store.append(`${tag}-store`, turnAt(i), { idempotencyKey: `t${i}` });
          samples.push(Number(now() - t0));
        }
      },
      samples: [],
      elapsedNs: 0,
      turns: 0,
    },
    {
      label: 'raw RPUSH, one turn per round trip',
      kind: 'raw',
      appendTurns: async (from, count, samples) => {
        for (let i = from; i < from + count; i++) {
          const t0 = now();
          await raw.rpush(`${tag}-raw`, ...rawValues[i]!);
          samples.push(Number(now() - t0));
        }
      },
      samples: [],
      elapsedNs: 0,
      turns: 0,
    },
    {
      label: 'raw RPUSH, fully pipelined (one round per pipeline)',
      kind: 'pipelined',
      appendTurns: async (from, count) => {
        const pipeline = raw.pipeline();
        for (let i = from; i < from + count; i++) pipeline.rpush(`${tag}-pipe`, ...rawValues[i]!);
        await pipeline.exec();
      },
      samples: [],
      elapsedNs: 0,
      turns: 0,
    },
  ];
  let next = 0;
  for (let r = 0; r < rounds; r++) {
    for (const side of sides) {
      const start = now();
      await side.appendTurns(next, perRound, side.samples);
      side.elapsedNs += Number(now() - start);
      side.turns += perRound;
    }
    next += perRound;
  }
  await store.close();
  raw.disconnect();
  return sides.map((s) => ({
    label: s.label,
    kind: s.kind,
    turns: s.turns,
    turnsPerSec: s.turns / (s.elapsedNs / 1e9),
    perTurn: s.samples.length > 0 ? summarizeSamples(s.samples) : undefined,
  }));
}

// ---------------------------------------------------------------- (c) AOF bytes per turn
async function benchBytes(url: string, sizes: readonly number[], rounds: number, perRound: number) {
  const store = createRedisStore({ url });
  const probe = new Redis(url);
  for (const size of sizes) await prefill(store, `b${size}`, size);
  const acc = new Map(sizes.map((s) => [s, { aof: 0, turns: 0 }]));
  const next = new Map(sizes.map((s) => [s, s]));
  for (let r = 0; r < rounds; r++) {
    for (const size of sizes) {
      const before = await aofSize(probe);
      const from = next.get(size)!;
      for (let i = from; i < from + perRound; i++) {
        await store.append(`b${size}`, turnAt(i), { idempotencyKey: `c${i}` });
      }
      next.set(size, from + perRound);
      const a = acc.get(size)!;
      a.aof += (await aofSize(probe)) - before;
      a.turns += perRound;
    }
  }
  await store.close();
  probe.disconnect();
  return sizes.map((size) => {
    const a = acc.get(size)!;
    return { interactions: size, turns: a.turns, aofBytesPerTurn: a.aof / a.turns };
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

function spawnChild(url: string, sessionId: string, mode: string) {
  return new Promise<ChildResult & { processMs: number }>((resolve, reject) => {
    const t0 = performance.now();
    execFile(
      process.execPath,
      [...process.execArgv, child, url, sessionId, mode],
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

async function benchFresh(url: string, sizes: readonly number[], fullSize: number, rounds: number) {
  const store = createRedisStore({ url, commandTimeoutMs: 60_000 });
  const t0 = performance.now();
  for (const size of sizes) await prefill(store, `ctx${size}`, size);
  const prefillMs = performance.now() - t0;
  await store.close();
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
      samples[i]!.push(await spawnChild(url, `ctx${c.size}`, c.mode));
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

// ---------------------------------------------------------------- run
assertRedisInstalled();
const dir = makeDir('bench');
let redis: RedisProcess | undefined;
try {
  const port = await freePort();
  redis = await startRedis(port, dir, [
    '--appendfsync',
    'everysec',
    '--auto-aof-rewrite-percentage',
    '0',
  ]);
  const url = `redis://127.0.0.1:${port}`;
  const config = new Redis(url);
  const fsync = await config.config('GET', 'appendfsync');
  config.disconnect();
  out.server = { appendonly: 'yes', appendfsync: (fsync as string[])[1] };

  const perRound = quick ? 100 : 300;
  await benchAppend(url, 'warm', 1, 50); // warm-up: JIT, script cache; discarded
  const append = await benchAppend(url, 'run', 5, perRound);
  printTable(
    `(a) Append one turn (4 messages, ~${Math.round(bytesPerMessage)} B JSON each), appendonly yes, appendfsync everysec`,
    append.map((a) => ({
      implementation: a.label,
      'turns/s': fmtInt(a.turnsPerSec),
      'median / turn': a.perTurn === undefined ? '-' : fmtUs(a.perTurn.medianUs),
      'p90 / turn': a.perTurn === undefined ? '-' : fmtUs(a.perTurn.p90Us),
      turns: a.turns,
    })),
  );
  const rate = (kind: string) => append.find((a) => a.kind === kind)!.turnsPerSec;
  const ratio = rate('store') / rate('raw');
  const ratioPipelined = rate('store') / rate('pipelined');

  const sizes = quick ? [1_000, 10_000] : [1_000, 10_000, 100_000];
  const fresh = await benchFresh(url, sizes, 10_000, quick ? 2 : 5);
  printTable(
    '(b) Fresh process: open = connect (store.info probe) first; call = the call after it; process = spawn to exit',
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

  const bytes = await benchBytes(url, [100, 1_000, 10_000], 3, quick ? 20 : 50);
  printTable(
    '(c) AOF bytes written per appended turn (INFO persistence aof_current_size delta)',
    bytes.map((b) => ({
      interactions: fmtInt(b.interactions),
      'AOF bytes / turn': fmtInt(b.aofBytesPerTurn),
      turns: b.turns,
    })),
  );
  const aofSpread =
    Math.max(...bytes.map((b) => b.aofBytesPerTurn)) /
    Math.min(...bytes.map((b) => b.aofBytesPerTurn));

  printTable('Targets', [
    {
      measure: 'store / raw RPUSH (one turn per round trip), turns per s',
      value: `${(ratio * 100).toFixed(0)} %`,
      target: '>= 50 %',
    },
    {
      measure: 'store / raw RPUSH fully pipelined, turns per s',
      value: `${(ratioPipelined * 100).toFixed(0)} %`,
      target: '(reported)',
    },
    ...ctx.map((c) => ({
      measure: `fresh-process context() at ${fmtInt(c.interactions)} interactions`,
      value: fmtMs(c.callMs),
      target: '< 20 ms',
    })),
    {
      measure: `context() growth, ${fmtInt(sizes.at(-1)!)} / 1,000`,
      value: growth(ctx).toFixed(2),
      target: '~1 (no growth)',
    },
    {
      measure: `raw tail read growth, ${fmtInt(sizes.at(-1)!)} / 1,000`,
      value: growth(tail).toFixed(2),
      target: '~1 (no growth)',
    },
    {
      measure: 'AOF bytes per turn, max / min over 100..10k',
      value: aofSpread.toFixed(2),
      target: '~1 (constant)',
    },
  ]);

  out.bytesPerMessage = bytesPerMessage;
  out.append = append.map((a) => ({
    implementation: a.label,
    turnsPerSec: a.turnsPerSec,
    medianUs: a.perTurn?.medianUs,
    p90Us: a.perTurn?.p90Us,
    turns: a.turns,
  }));
  out.appendRatio = ratio;
  out.appendRatioPipelined = ratioPipelined;
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
  out.aofSpread = aofSpread;
  console.log(JSON.stringify(out));
} finally {
  if (redis !== undefined) await killRedis(redis);
  removeDir(dir);
}
