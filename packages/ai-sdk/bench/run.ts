import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { fmtUs, now, printTable, summarizeSamples } from '@mem/bench-kit';
import {
  createInMemoryStore,
  createMemoryEngine,
  type MemoryEngine,
  type MemorySession,
} from '@mem/core';
import type { Store } from '@mem/core/backend';
import { createRedisStore } from '@mem/store-redis';
import { createSqliteStore } from '@mem/store-sqlite';
import { generateText, type ModelMessage, wrapLanguageModel } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import {
  assertRedisInstalled,
  freePort,
  killRedis,
  makeDir,
  type RedisProcess,
  removeDir,
  startRedis,
} from '../../store-redis/src/__fixtures__/redis-process.ts';
import { textResult } from '../src/__fixtures__/model-results.ts';
import { memoryMiddleware } from '../src/index.ts';

/**
 * `pnpm bench` for @mem/ai-sdk: what one `generateText` call through `memoryMiddleware` costs on
 * sessions of 10, 500 and 10,000 earlier interactions (`max_tokens` 4,000, an instant mock model
 * from `ai/test`), on the in-memory store and on a SQLite file (`@mem/store-sqlite`, defaults),
 * side by side with the same turn done on the engine by hand (append the question, build the
 * context, append the answer) and with `generateText` on the bare mock model. Interleaved rounds;
 * the middleware's own cost is the difference.
 *
 * Two prompt shapes: `question` (the prompt holds the new question only, the app lets mem keep the
 * history) and `re-sent` (the app re-sends its own history and the new question, as a chat UI
 * does: as many interactions as the session had earlier, the newest of them as calls add more;
 * run up to 500 earlier interactions). The bare model
 * gets the same prompt, so what the AI SDK does with a long prompt is not counted as the
 * middleware's.
 *
 * `--quick` shrinks rounds and sizes; `--sizes=10,500` picks sizes; `--stores=memory,sqlite`
 * picks stores (`redis` too: a private redis-server on loopback, started like store-redis's
 * bench, `appendfsync everysec`; needs `redis-server` on the PATH).
 */
const quick = process.argv.includes('--quick');
/** `--drain`: a 1 ms timer before each side, so work left from the side before runs outside it. */
const drain = process.argv.includes('--drain');
const flag = (name: string) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
/**
 * `--before=<dir>`: a baseline middleware, the `src/` of an earlier commit
 * (`git archive <rev> packages/ai-sdk/src | tar -x --strip-components=2 -C packages/ai-sdk/.bench-before`,
 * so it resolves `@mem/core` from this workspace), run in the same rounds on its own session.
 */
const beforeDir = flag('before');
const baseline =
  beforeDir === undefined
    ? undefined
    : ((await import(pathToFileURL(resolve(beforeDir, 'src/index.ts')).href)) as {
        memoryMiddleware: typeof memoryMiddleware;
      });
const sizes = flag('sizes')?.split(',').map(Number) ?? (quick ? [10, 500] : [10, 500, 10_000]);
type StoreKind = 'memory' | 'sqlite' | 'redis';
const storeKinds = (flag('stores')?.split(',') ?? ['memory', 'sqlite']) as StoreKind[];
/** The re-sent shape re-sends at most this many interactions (and runs up to this size). */
const RESENT_TURNS = 500;
const rounds = quick ? 3 : 8;
const perRound = quick ? 20 : 50;
const profile = {
  short_term_memory_strategy: [{ memory_strategy_id: 'max_tokens', memory_max_tokens: 4_000 }],
};
const question = (i: number) => `Question ${i}: what did we decide about the order AF-${1000 + i}?`;
const answer = (i: number) =>
  `Answer ${i}: the replacement ships on day ${i % 28}, tracking number ${i * 7919}.`;

async function prefill(session: MemorySession, interactions: number): Promise<void> {
  for (let i = 0; i < interactions; i += 500) {
    const batch = [];
    for (let t = i; t < Math.min(interactions, i + 500); t++) {
      batch.push({ role: 'user' as const, content: question(t) });
      batch.push({ role: 'assistant' as const, content: answer(t) });
    }
    await session.append(batch);
  }
}

type Shape = 'question' | 're-sent';

/** The app's own copy of the conversation (the re-sent shape), the newest RESENT_TURNS of it. */
function appHistory(size: number): ModelMessage[] {
  const history: ModelMessage[] = [];
  for (let t = Math.max(0, size - RESENT_TURNS); t < size; t++) {
    history.push({ role: 'user', content: question(t) });
    history.push({ role: 'assistant', content: answer(t) });
  }
  return history;
}

const dir = mkdtempSync(join(tmpdir(), 'mem-ai-sdk-bench-'));
let files = 0;
let redis: { process: RedisProcess; dir: string; url: string } | undefined;
async function storeOf(kind: StoreKind): Promise<Store> {
  if (kind === 'memory') return createInMemoryStore();
  if (kind === 'sqlite') return createSqliteStore({ path: join(dir, `bench-${files++}.db`) });
  if (redis === undefined) {
    assertRedisInstalled();
    const where = makeDir('ai-sdk-bench');
    const port = await freePort();
    const server = await startRedis(port, where, ['--appendfsync', 'everysec']);
    redis = { process: server, dir: where, url: `redis://127.0.0.1:${port}` };
  }
  return createRedisStore({ url: redis.url, prefix: `bench${files++}` });
}
const storeNames: Record<StoreKind, string> = {
  memory: 'in-memory',
  sqlite: 'SQLite file',
  redis: 'Redis (loopback)',
};

async function measure(kind: StoreKind, size: number, shape: Shape) {
  const store = await storeOf(kind);
  const engine: MemoryEngine = createMemoryEngine({ store, profile });
  const byHand = engine.session('by-hand');
  const wrapped = engine.session('middleware');
  await prefill(byHand, size);
  await prefill(wrapped, size);
  if (baseline !== undefined) await prefill(engine.session('before'), size);
  let turn = size;
  const history = shape === 're-sent' ? appHistory(size) : [];
  // The mocks keep every call's options: dropped after each call, or the re-sent prompts they
  // hold would make the garbage collector's pauses land on whichever side runs next.
  const mocks = [0, 1, 2].map(
    () => new MockLanguageModelV3({ doGenerate: async () => textResult(answer(turn)) }),
  ) as [MockLanguageModelV3, MockLanguageModelV3, MockLanguageModelV3];
  const forget = () => {
    for (const mock of mocks) mock.doGenerateCalls.length = 0;
  };
  const bare = mocks[0];
  const model = wrapLanguageModel({
    model: mocks[1],
    middleware: memoryMiddleware({ engine, sessionId: 'middleware' }),
  });
  const before =
    baseline === undefined
      ? undefined
      : wrapLanguageModel({
          model: mocks[2],
          middleware: baseline.memoryMiddleware({ engine, sessionId: 'before' }),
        });
  const samples = {
    hand: [] as number[],
    middleware: [] as number[],
    bare: [] as number[],
    before: [] as number[],
  };
  for (let r = -1; r < rounds; r++) {
    const keep = r >= 0;
    for (let i = 0; i < perRound; i++, turn++) {
      const messages: ModelMessage[] = [...history, { role: 'user', content: question(turn) }];
      const sides: Array<[keyof typeof samples, () => Promise<unknown>]> = [
        [
          'hand',
          async () => {
            await byHand.append({ role: 'user', content: question(turn) });
            await byHand.context();
            await byHand.append({ role: 'assistant', content: answer(turn) });
          },
        ],
        ['middleware', () => generateText({ model, messages })],
        ['bare', () => generateText({ model: bare, messages })],
      ];
      if (before !== undefined) {
        sides.push(['before', () => generateText({ model: before, messages })]);
      }
      // Each call starts the rotation at another side: a pause of the garbage collector for
      // what one side left lands on every side alike.
      for (let k = 0; k < sides.length; k++) {
        const [side, call] = sides[(i + k) % sides.length] as (typeof sides)[number];
        if (drain) await new Promise((resolve) => setTimeout(resolve, 1));
        const t0 = now();
        await call();
        if (keep) samples[side].push(Number(now() - t0));
      }
      forget();
      if (shape === 're-sent') {
        history.push(messages.at(-1) as ModelMessage, { role: 'assistant', content: answer(turn) });
        if (history.length > 2 * Math.min(size, RESENT_TURNS)) history.splice(0, 2);
      }
    }
  }
  await store.close?.();
  const hand = summarizeSamples(samples.hand);
  const middleware = summarizeSamples(samples.middleware);
  const plain = summarizeSamples(samples.bare);
  const was = before === undefined ? undefined : summarizeSamples(samples.before);
  return { hand, middleware, plain, was };
}

const rows: Array<Record<string, string>> = [];
const out: Array<Record<string, number | string>> = [];
try {
  for (const kind of storeKinds) {
    for (const shape of ['question', 're-sent'] as const) {
      for (const size of sizes) {
        if (shape === 're-sent' && size > RESENT_TURNS) continue;
        const { hand, middleware, plain, was } = await measure(kind, size, shape);
        const overheadUs = middleware.medianUs - plain.medianUs - hand.medianUs;
        rows.push({
          store: storeNames[kind],
          prompt: shape === 'question' ? 'new question' : 'history re-sent',
          'earlier interactions': size.toLocaleString('en-US'),
          'engine by hand': fmtUs(hand.medianUs),
          'generateText, bare model': fmtUs(plain.medianUs),
          'generateText + memoryMiddleware': fmtUs(middleware.medianUs),
          'middleware beyond both': fmtUs(overheadUs),
          ...(was === undefined
            ? {}
            : {
                'middleware, before': fmtUs(was.medianUs),
                'now / before': (middleware.medianUs / was.medianUs).toFixed(2),
              }),
        });
        out.push({
          store: kind,
          prompt: shape,
          interactions: size,
          byHandMedianUs: hand.medianUs,
          bareMedianUs: plain.medianUs,
          middlewareMedianUs: middleware.medianUs,
          middlewareP90Us: middleware.p90Us,
          overheadUs,
          ...(was === undefined ? {} : { beforeMedianUs: was.medianUs }),
        });
      }
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
  if (redis !== undefined) {
    await killRedis(redis.process);
    removeDir(redis.dir);
  }
}
printTable(
  `memoryMiddleware per generateText call (medians, ${rounds} interleaved rounds × ${perRound} calls, max_tokens 4,000, instant mock model; target: middleware beyond both <= 1 ms at 500)`,
  rows,
);
const question500 = out.filter((o) => o.prompt === 'question');
const flatOf = (kind: string) => {
  const of = question500.filter((o) => o.store === kind);
  return Number(of.at(-1)?.middlewareMedianUs ?? 0) / Number(of[0]?.middlewareMedianUs ?? 1);
};
const flat = Object.fromEntries(storeKinds.map((k) => [k, flatOf(k)]));
console.log(
  `\nlargest / smallest session, middleware call (new question): ${storeKinds.map((k) => `${k} ${flat[k]?.toFixed(2)}×`).join(', ')}`,
);
console.log(
  JSON.stringify({ bench: '@mem/ai-sdk', node: process.version, quick, middleware: out, flat }),
);
