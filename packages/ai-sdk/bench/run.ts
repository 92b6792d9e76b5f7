import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { fmtUs, now, printTable, summarizeSamples } from '@mem/bench-kit';
import { createInMemoryStore, createMemoryEngine, type MemorySession } from '@mem/core';
import { generateText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { textResult } from '../src/__fixtures__/model-results.ts';
import { memoryMiddleware } from '../src/index.ts';

/**
 * `pnpm bench` for @mem/ai-sdk: what one `generateText` call through `memoryMiddleware` costs on
 * sessions of 10, 1,000 and 10,000 earlier interactions (in-memory store, `max_tokens` 4,000,
 * an instant mock model from `ai/test`), side by side with the same turn done on the engine by
 * hand (append the question, build the context, append the answer) and with `generateText` on
 * the bare mock model. Interleaved rounds; the middleware's own cost is the difference.
 */
const quick = process.argv.includes('--quick');
/**
 * `--before=<dir>`: a baseline middleware, the `src/` of an earlier commit
 * (`git archive <rev> packages/ai-sdk/src | tar -x --strip-components=2 -C packages/ai-sdk/.bench-before`,
 * so it resolves `@mem/core` from this workspace), run in the same rounds on its own session.
 */
const beforeDir = process.argv.find((a) => a.startsWith('--before='))?.slice('--before='.length);
const baseline =
  beforeDir === undefined
    ? undefined
    : ((await import(pathToFileURL(resolve(beforeDir, 'src/index.ts')).href)) as {
        memoryMiddleware: typeof memoryMiddleware;
      });
const sizes = quick ? [10, 1_000] : [10, 1_000, 10_000];
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

const rows: Array<Record<string, string>> = [];
const out: Array<Record<string, number>> = [];
for (const size of sizes) {
  const engine = createMemoryEngine({ store: createInMemoryStore(), profile });
  const byHand = engine.session('by-hand');
  const wrapped = engine.session('middleware');
  await prefill(byHand, size);
  await prefill(wrapped, size);
  if (baseline !== undefined) await prefill(engine.session('before'), size);
  let turn = size;
  const bare = new MockLanguageModelV3({ doGenerate: async () => textResult(answer(turn)) });
  const model = wrapLanguageModel({
    model: new MockLanguageModelV3({ doGenerate: async () => textResult(answer(turn)) }),
    middleware: memoryMiddleware({ engine, sessionId: 'middleware' }),
  });
  const before =
    baseline === undefined
      ? undefined
      : wrapLanguageModel({
          model: new MockLanguageModelV3({ doGenerate: async () => textResult(answer(turn)) }),
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
      let t0 = now();
      await byHand.append({ role: 'user', content: question(turn) });
      await byHand.context();
      await byHand.append({ role: 'assistant', content: answer(turn) });
      if (keep) samples.hand.push(Number(now() - t0));
      t0 = now();
      await generateText({ model, prompt: question(turn) });
      if (keep) samples.middleware.push(Number(now() - t0));
      t0 = now();
      await generateText({ model: bare, prompt: question(turn) });
      if (keep) samples.bare.push(Number(now() - t0));
      if (before !== undefined) {
        t0 = now();
        await generateText({ model: before, prompt: question(turn) });
        if (keep) samples.before.push(Number(now() - t0));
      }
    }
  }
  const hand = summarizeSamples(samples.hand);
  const middleware = summarizeSamples(samples.middleware);
  const plain = summarizeSamples(samples.bare);
  const overheadUs = middleware.medianUs - plain.medianUs - hand.medianUs;
  const was = before === undefined ? undefined : summarizeSamples(samples.before);
  rows.push({
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
    interactions: size,
    byHandMedianUs: hand.medianUs,
    bareMedianUs: plain.medianUs,
    middlewareMedianUs: middleware.medianUs,
    middlewareP90Us: middleware.p90Us,
    overheadUs,
    ...(was === undefined ? {} : { beforeMedianUs: was.medianUs }),
  });
}
printTable(
  `memoryMiddleware per generateText call (medians, ${rounds} interleaved rounds × ${perRound} calls, in-memory store, instant mock model)`,
  rows,
);
const flat = (out.at(-1)?.middlewareMedianUs ?? 0) / (out[0]?.middlewareMedianUs ?? 1);
console.log(`\nlargest / smallest session, middleware call: ${flat.toFixed(2)}×`);
console.log(
  JSON.stringify({ bench: '@mem/ai-sdk', node: process.version, quick, middleware: out, flat }),
);
