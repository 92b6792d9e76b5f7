import { createHash } from 'node:crypto';
import type { BenchRun } from '@mem/store-bench';
import { Redis } from 'ioredis';
import { APPEND_BASELINE_LUA } from '../src/__fixtures__/append-baseline-lua.ts';
import { type AppendCounters, appendArgs, countersAfter } from '../src/append-plan.ts';
import { encodeBatch } from '../src/encode-stored.ts';
import { createRedisStore } from '../src/index.ts';
import { type LuaScript, SCRIPTS } from '../src/lua-scripts.ts';
import { runScript } from '../src/redis-connection.ts';
import { sessionKeys } from '../src/session-keys.ts';

/**
 * (d) Server time of one append (a usual 4-message turn) on sessions of 1,000 and 10,000
 * interactions: the append script before the server-time cut (baseline, the text kept in
 * `src/__fixtures__/append-baseline-lua.ts`) and the current one, side by side in interleaved
 * rounds on the same server. Each side has its own session per size (both pre-filled by the
 * store) and appends the same turns with the same arguments `store.append` builds. Each round
 * of a side runs `CONFIG RESETSTAT`, its appends, then reads `INFO commandstats`: evalsha
 * usec_per_call (which includes the commands the script runs) and every command the script ran
 * (calls per append, usec per append). Client side: the round trip of each append, beside a raw
 * RPUSH of the same bytes (the JSONs serialized before the timer). Two floors show what no
 * trimming of the script can go below with this key layout: the same EVALSHA returning at once,
 * and the same EVALSHA running only the turn's ZADD; a third prices a list layout: the plan
 * path's commands with RPUSH in place of the ZADD.
 */
export interface ServerTimeRow {
  interactions: number;
  implementation: string;
  /** evalsha usec per call (0 for the raw RPUSH). */
  serverUs: number;
  /** Per command the script (or the raw side) ran: calls and usec per append. */
  commands: Record<string, { perAppend: number; usPerAppend: number }>;
  commandsPerAppend: number;
  medianUs: number;
  p90Us: number;
  appends: number;
}

/**
 * Floors with the current key layout, given the current script's ARGV (a plan for the turn): the
 * same EVALSHA doing nothing, and doing only the turn's ZADD (its planned seqs and JSONs, as
 * the script's plan path sends them).
 */
const FLOOR_EMPTY = 'return 1';
const FLOOR_ZADD = `
local n = tonumber(ARGV[6])
local zs = 33 + 3 * n
redis.call('ZADD', KEYS[2], unpack(ARGV, zs, zs + 2 * n - 1))
return 1
`;
/**
 * What the current script's plan path would cost with the active messages in a list (KEYS[2] a
 * list key beside a pre-filled meta hash): the same HMGET, RPUSH of the JSONs instead of the
 * ZADD, the same HSET and PTTL. Nothing reads that list; it prices another layout before anyone
 * builds it (the reads, pops, compactions and erasures a list would need are not in it).
 */
const FLOOR_LIST = `
local n = tonumber(ARGV[6])
local hs = 15 + n
local zs = hs + 18 + 2 * n
redis.call('HMGET', KEYS[1], 'state', 'version', 'epoch', 'lastSeq', 'count', 'tokens', 'kn',
  'ko', ARGV[3], unpack(ARGV, 15, 14 + n))
local j = {}
for i = 1, n do j[i] = ARGV[zs + 2 * i - 1] end
redis.call('RPUSH', KEYS[2], unpack(j))
redis.call('HSET', KEYS[1], unpack(ARGV, hs, zs - 1))
redis.call('PTTL', KEYS[1])
return {'ok', ARGV[14]}
`;

type Side = {
  label: string;
  /** Appends turn `i`; resolves after the reply. */
  append: (i: number) => Promise<unknown>;
};

const script = (name: string, lua: string): LuaScript => ({
  name,
  lua,
  sha: createHash('sha1').update(lua).digest('hex'),
});

export async function benchServerTime(run: BenchRun, url: string): Promise<ServerTimeRow[]> {
  const sizes = run.quick ? [1_000, 2_000] : [1_000, 10_000];
  const rounds = run.quick ? 4 : 16;
  const perRound = run.quick ? 50 : 150;
  const store = createRedisStore({ url, commandTimeoutMs: 60_000 });
  const client = new Redis(url);
  const baseline = script('append (baseline)', APPEND_BASELINE_LUA);
  const floorEmpty = script('floor: no command', FLOOR_EMPTY);
  const floorZadd = script('floor: ZADD only', FLOOR_ZADD);
  const floorList = script('floor: list layout', FLOOR_LIST);
  const rows: ServerTimeRow[] = [];
  try {
    for (const size of sizes) {
      const tag = `server-time-${size}`;
      // The arguments `store.append` sent before (same builder), to the baseline.
      const viaScript = (lua: LuaScript, sessionId: string): Side['append'] => {
        const keys = sessionKeys('mem', 'default', sessionId);
        return (i) => {
          const batch = encodeBatch(run.turnAt(i));
          const key = `d${i}`;
          const args = [String(Date.now()), 0, `k:${key}`, key, batch.tokens, batch.ids.length];
          return runScript(client, lua, keys, [...args, ...batch.args]);
        };
      };
      // The current script with the arguments and counter hints `store.append` sends.
      const viaPlan = (sessionId: string): Side['append'] => {
        const keys = sessionKeys('mem', 'default', sessionId);
        let known: AppendCounters | undefined;
        return async (i) => {
          const batch = encodeBatch(run.turnAt(i));
          const { args, planned } = appendArgs(String(Date.now()), 0, `d${i}`, batch, known);
          const reply = (await runScript(client, SCRIPTS.append, keys, args)) as unknown[];
          known = reply[0] === 'ok' ? countersAfter(reply, planned) : undefined;
        };
      };
      // A floor script with the current script's arguments, planned at seqs above the pre-fill.
      const viaFloor = (lua: LuaScript, sessionId: string, listKey = false): Side['append'] => {
        const keys = sessionKeys('mem', 'default', sessionId);
        // The list floor: a fresh list beside the session's (pre-filled) meta hash.
        if (listKey) keys[1] = keys[0]!.replace(/:m$/, ':l');
        return (i) => {
          const batch = encodeBatch(run.turnAt(i));
          const at = { version: 0, epoch: 0, lastSeq: i * 8, count: 0, tokens: 0, kn: 0, ko: 0 };
          const { args } = appendArgs(String(Date.now()), 0, `d${i}`, batch, at);
          return runScript(client, lua, keys, args);
        };
      };
      const rawValues = new Map<number, string[]>();
      const sides: Side[] = [
        { label: 'baseline script (EVALSHA)', append: viaScript(baseline, `${tag}-old`) },
        { label: 'current script (EVALSHA)', append: viaPlan(`${tag}-new`) },
        {
          label: 'current, through store.append',
          append: (i) => store.append(`${tag}-store`, run.turnAt(i), { idempotencyKey: `d${i}` }),
        },
        { label: 'floor: same EVALSHA, no command', append: viaFloor(floorEmpty, `${tag}-empty`) },
        { label: 'floor: same EVALSHA, ZADD only', append: viaFloor(floorZadd, `${tag}-zadd`) },
        {
          label: 'floor: same checks and writes, RPUSH for ZADD',
          append: viaFloor(floorList, `${tag}-list`, true),
        },
        {
          label: 'raw RPUSH of the same bytes',
          append: (i) => client.rpush(`${tag}-raw`, ...rawValues.get(i)!),
        },
      ];
      for (const s of [`${tag}-old`, `${tag}-new`, `${tag}-store`, `${tag}-zadd`, `${tag}-list`]) {
        await run.prefill(store, s, size);
      }
      // Warm-up (scripts loaded, connections open), not counted.
      for (const side of sides) {
        for (let i = size; i < size + 20; i++) {
          rawValues.set(
            i,
            run.turnAt(i).map((m) => JSON.stringify(m)),
          );
          await side.append(i);
        }
      }
      const acc = sides.map(() => ({
        samples: [] as number[],
        stats: new Map<string, number[]>(),
      }));
      let next = size + 20;
      for (let r = 0; r < rounds; r++) {
        for (let i = next; i < next + perRound; i++) {
          rawValues.set(
            i,
            run.turnAt(i).map((m) => JSON.stringify(m)),
          );
        }
        // Alternate the order of the sides from round to round.
        const order = sides.map((_, j) => (r % 2 === 0 ? j : sides.length - 1 - j));
        for (const j of order) {
          const side = sides[j]!;
          await client.config('RESETSTAT');
          for (let i = next; i < next + perRound; i++) {
            const t0 = process.hrtime.bigint();
            await side.append(i);
            acc[j]!.samples.push(Number(process.hrtime.bigint() - t0));
          }
          addStats(acc[j]!.stats, await client.info('commandstats'));
        }
        for (let i = next; i < next + perRound; i++) rawValues.delete(i);
        next += perRound;
      }
      sides.forEach((side, j) => {
        const { samples, stats } = acc[j]!;
        const appends = samples.length;
        const commands: ServerTimeRow['commands'] = {};
        let commandsPerAppend = 0;
        for (const [name, [calls, usec]] of stats) {
          if (
            name === 'config|resetstat' ||
            name === 'info' ||
            name === 'evalsha' ||
            name === 'eval'
          ) {
            continue;
          }
          commands[name] = { perAppend: calls! / appends, usPerAppend: usec! / appends };
          commandsPerAppend += calls! / appends;
        }
        const evals = [stats.get('evalsha'), stats.get('eval')].filter((s) => s !== undefined);
        const calls = evals.reduce((sum, s) => sum + s![0]!, 0);
        const usec = evals.reduce((sum, s) => sum + s![1]!, 0);
        const sorted = [...samples].sort((a, b) => a - b);
        const at = (q: number) => (sorted[Math.floor(q * sorted.length)] ?? 0) / 1e3;
        rows.push({
          interactions: size,
          implementation: side.label,
          serverUs: calls === 0 ? 0 : usec / calls,
          commands,
          commandsPerAppend,
          medianUs: at(0.5),
          p90Us: at(0.9),
          appends,
        });
      });
    }
  } finally {
    await store.close();
    client.disconnect();
  }
  return rows;
}

/** Adds `calls` and `usec` of every `cmdstat_` line to `into` (name -> [calls, usec]). */
function addStats(into: Map<string, number[]>, info: string): void {
  for (const match of info.matchAll(/^cmdstat_([^:]+):calls=(\d+),usec=(\d+)/gm)) {
    const [calls, usec] = into.get(match[1]!) ?? [0, 0];
    into.set(match[1]!, [calls! + Number(match[2]), usec! + Number(match[3])]);
  }
}

/** Prints table (d) and returns its JSON fields (rows, and current / baseline per size). */
export function reportServerTime(rows: readonly ServerTimeRow[]): Record<string, unknown> {
  const lines = rows.map((r) => ({
    interactions: r.interactions.toLocaleString('en-US'),
    implementation: r.implementation,
    'evalsha µs / call': r.serverUs === 0 ? '-' : r.serverUs.toFixed(1),
    'commands / append': Object.entries(r.commands)
      .map(([name, c]) => `${name} ${c.perAppend.toFixed(2)}× ${c.usPerAppend.toFixed(1)} µs`)
      .join(', '),
    'round trip median': `${r.medianUs.toFixed(1)} µs`,
    p90: `${r.p90Us.toFixed(1)} µs`,
    appends: r.appends,
  }));
  const cols = Object.keys(lines[0] ?? {});
  const width = cols.map((c) =>
    Math.max(c.length, ...lines.map((l) => String(l[c as keyof typeof l]).length)),
  );
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(width[i]!)).join('  ');
  console.log(
    '\n(d) Server time per append (INFO commandstats after CONFIG RESETSTAT), baseline vs current script, interleaved rounds',
  );
  console.log(line(cols));
  console.log(line(width.map((w) => '-'.repeat(w))));
  for (const l of lines) console.log(line(cols.map((c) => String(l[c as keyof typeof l]))));
  const ratios: Record<string, unknown> = {};
  for (const size of new Set(rows.map((r) => r.interactions))) {
    const of = (label: string) =>
      rows.find((r) => r.interactions === size && r.implementation.startsWith(label))!;
    const old = of('baseline');
    const cur = of('current script');
    const raw = of('raw');
    ratios[size] = {
      serverTimeRatio: cur.serverUs / old.serverUs,
      roundTripRatio: cur.medianUs / old.medianUs,
      currentVsRawRoundTrip: raw.medianUs / cur.medianUs,
      baselineVsRawRoundTrip: raw.medianUs / old.medianUs,
    };
    console.log(
      `${size.toLocaleString('en-US')} interactions: server time current / baseline ${(cur.serverUs / old.serverUs).toFixed(2)}, round trip current / baseline ${(cur.medianUs / old.medianUs).toFixed(2)}`,
    );
  }
  return { serverTime: rows, serverTimeRatios: ratios };
}
