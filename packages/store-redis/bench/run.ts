import { runStoreSections, type StoreBenchBackend, startBench, turnByTurn } from '@mem/store-bench';
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
import { benchServerTime, reportServerTime } from './append-server-time.ts';
import { runKbDelete } from './kb-delete.ts';
import { runKbLimits } from './kb-limits.ts';
import { runRecallContext } from './recall-context.ts';

/**
 * `pnpm bench` for @mem/store-redis, side by side in one run (interleaved rounds; the shared
 * sections of @mem/store-bench), against a private redis-server this script starts on a free
 * 127.0.0.1 port and stops at the end: `--appendonly yes --appendfsync everysec` (an acknowledged
 * write is in the AOF within ~1 s; `always` would fsync every write), `--save ''`, and automatic
 * AOF rewrites off (`--auto-aof-rewrite-percentage 0`) so the AOF size measures exactly what
 * each write adds.
 * (a) append one turn (4 messages, ~400 bytes of JSON each) with `store.append` vs the raw
 *     floor: RPUSH of the same bytes, one turn per round trip (redis-benchmark style), and
 *     fully pipelined (every turn of a round in one pipeline);
 * (b) in a fresh process: build the context (max_tokens 4,000) on sessions of 1k/10k/100k
 *     interactions, the raw tail read (200 newest messages), and loading a whole 10k history;
 * (c) AOF bytes per turn (`INFO persistence` aof_current_size) at 100, 1k and 10k interactions;
 * (d) server time per append (`INFO commandstats`), the append script before its server-time
 *     cut beside the current one, on sessions of 1k and 10k interactions (append-server-time.ts).
 * (e) the Redis knowledge base's writes: a compaction's delete and an add, wall and script
 *     server time and AOF bytes, the scripts before the summary index and posting blocks beside
 *     the current ones, at 1k and 10k chunks in the session; and a search (kb-delete.ts);
 * (f) `context()` with retrieval on a 10k-interaction conversation, the in-memory knowledge base
 *     and the Redis one side by side (recall-context.ts);
 * (g) per-scope limits of the Redis knowledge base: search latency of one session at growing
 *     sizes, lexical and semantic at 256 and 1,536 dimensions (kb-limits.ts).
 * `--quick` shrinks the sizes; `--only=server-time`, `--only=kb-delete`,
 * `--only=recall-context` or `--only=kb-limits` runs (d), (e), (f) or (g) alone.
 */
const run = startBench('@mem/store-redis');

async function aofSize(client: Redis): Promise<number> {
  const info = await client.info('persistence');
  const match = /aof_current_size:(\d+)/.exec(info);
  if (match === null) throw new Error('INFO persistence has no aof_current_size (AOF off?)');
  return Number(match[1]);
}

/** (a): the store, raw RPUSH one turn per round trip, and raw RPUSH fully pipelined. */
async function openAppendSides(url: string, tag: string, total: number) {
  const store = createRedisStore({ url });
  const raw = new Redis(url);
  await store.info('warm'); // connects, outside the timer
  await raw.ping();
  // Raw values are serialized before the timer: the floor is the server's RPUSH + AOF write.
  const rawValues = Array.from({ length: total }, (_, i) =>
    run.turnAt(i).map((m) => JSON.stringify(m)),
  );
  const sides = [
    {
      label: 'store.append (Lua script, EVALSHA)',
      kind: 'store',
      appendTurns: turnByTurn(async (i) => {
        await store.append(`${tag}-store`, run.turnAt(i), { idempotencyKey: `t${i}` });
      }),
    },
    {
      label: 'raw RPUSH, one turn per round trip',
      kind: 'raw',
      appendTurns: turnByTurn(async (i) => {
        await raw.rpush(`${tag}-raw`, ...rawValues[i]!);
      }),
    },
    {
      label: 'raw RPUSH, fully pipelined (one round per pipeline)',
      kind: 'pipelined',
      appendTurns: async (from: number, count: number) => {
        const pipeline = raw.pipeline();
        for (let i = from; i < from + count; i++) pipeline.rpush(`${tag}-pipe`, ...rawValues[i]!);
        await pipeline.exec();
      },
    },
  ];
  return {
    sides,
    close: async () => {
      await store.close();
      raw.disconnect();
    },
  };
}

function backendOn(url: string): StoreBenchBackend {
  const ratios = (rows: ReadonlyArray<{ kind: string; turnsPerSec: number }>) => {
    const rate = (kind: string) => rows.find((a) => a.kind === kind)!.turnsPerSec;
    return { ratio: rate('store') / rate('raw'), pipelined: rate('store') / rate('pipelined') };
  };
  return {
    append: {
      title: 'appendonly yes, appendfsync everysec',
      warmUpTurns: 50,
      rounds: 5,
      open: (tag, total) => openAppendSides(url, tag, total),
      targets: (rows) => [
        {
          measure: 'store / raw RPUSH (one turn per round trip), turns per s',
          value: `${(ratios(rows).ratio * 100).toFixed(0)} %`,
          target: '>= 50 %',
        },
        {
          measure: 'store / raw RPUSH fully pipelined, turns per s',
          value: `${(ratios(rows).pipelined * 100).toFixed(0)} %`,
          target: '(reported)',
        },
      ],
      json: (rows) => ({
        appendRatio: ratios(rows).ratio,
        appendRatioPipelined: ratios(rows).pipelined,
      }),
    },
    fresh: {
      title:
        '(b) Fresh process: open = connect (store.info probe) first; call = the call after it; process = spawn to exit',
      child: new URL('./context-child.ts', import.meta.url),
      place: url,
      openStore: () => createRedisStore({ url, commandTimeoutMs: 60_000 }),
      contextTarget: '< 20 ms',
      growthDigits: 2,
    },
    bytes: {
      title: '(c) AOF bytes written per appended turn (INFO persistence aof_current_size delta)',
      openStore: () => createRedisStore({ url }),
      openProbe: () => {
        const probe = new Redis(url);
        return {
          read: async () => ({ aofBytesPerTurn: await aofSize(probe) }),
          close: () => probe.disconnect(),
        };
      },
      columns: [{ key: 'aofBytesPerTurn', column: 'AOF bytes / turn' }],
      spread: {
        key: 'aofBytesPerTurn',
        json: 'aofSpread',
        measure: 'AOF bytes per turn, max / min over 100..10k',
      },
    },
  };
}

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
  run.out.server = { appendonly: 'yes', appendfsync: (fsync as string[])[1] };
  const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);
  if (only === undefined) await runStoreSections(run, backendOn(url));
  if (only === undefined || only === 'server-time') {
    Object.assign(run.out, reportServerTime(await benchServerTime(run, url)));
  }
  if (only === undefined || only === 'kb-delete') await runKbDelete(run, url);
  if (only === undefined || only === 'recall-context') await runRecallContext(run, url);
  if (only === undefined || only === 'kb-limits') await runKbLimits(run, url);
  console.log(JSON.stringify(run.out));
} finally {
  if (redis !== undefined) await killRedis(redis);
  removeDir(dir);
}
