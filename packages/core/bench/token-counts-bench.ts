import { fmtUs, median, now, printTable } from '@mem/bench-kit';
import type { ModelName } from 'ai-tokenizer';
import type { Message } from '../src/model/message.ts';
import { referenceCount } from '../src/tokens/__fixtures__/ai-tokenizer-reference.ts';
import {
  TEXT_KINDS,
  type TextKind,
  textsByKind,
} from '../src/tokens/__fixtures__/texts-by-kind.ts';
import { createTokenCounter, type TokenCounter } from '../src/tokens/token-counter.ts';

/**
 * Token counts per model (`pnpm bench -- --only=token-counts`): for each model and kind of text
 * (src/tokens/__fixtures__/texts-by-kind.ts says where each text comes from), the prompt count of
 * - mem now: `createTokenCounter({ model })`,
 * - mem before: o200k_base for every model (what mem counted before it knew the model),
 * each against "the model's tokenizer": ai-tokenizer's `count()` with the model's entry of its
 * table (for OpenAI models the exact encoding; for Claude its Claude encoding and calibration).
 * Cost: µs per message counted, now vs before, in interleaved rounds (which side goes first
 * alternates); tokenizer caches are warm on both sides (every text counted once before timing).
 */
const MODELS: ReadonlyArray<{ model: string; reference: ModelName }> = [
  { model: 'gpt-4o', reference: 'openai/gpt-4o' },
  { model: 'gpt-4-turbo', reference: 'openai/gpt-4-turbo' },
  { model: 'claude-sonnet-4-5', reference: 'anthropic/claude-sonnet-4.5' },
  { model: 'gemini-2.5-pro', reference: 'google/gemini-2.5-pro' },
  { model: 'mistral-large', reference: 'mistral/mistral-large' },
  { model: 'llama-3.3-70b', reference: 'meta/llama-3.3-70b' },
];

const prompt = (counter: TokenCounter, messages: readonly Message[]) =>
  messages.reduce((n, m) => n + counter.countMessage(m), counter.replyPrimingTokens);

function timeNsPerMessage(counter: TokenCounter, messages: readonly Message[], reps: number) {
  let sink = 0;
  const t0 = now();
  for (let r = 0; r < reps; r++) for (const m of messages) sink += counter.countMessage(m);
  const ns = Number(now() - t0) / (reps * messages.length);
  return sink < 0 ? -1 : ns;
}

export interface TokenCountRow {
  model: string;
  kind: TextKind;
  counting: string;
  messages: number;
  reference: number;
  now: number;
  before: number;
  nowRatio: number;
  beforeRatio: number;
  nowUsPerMessage: number;
  beforeUsPerMessage: number;
  costRatio: number;
}

export async function runTokenCountsBench(quick: boolean): Promise<TokenCountRow[]> {
  const texts = textsByKind();
  const before = createTokenCounter({ encoding: 'o200k_base' });
  await before.ready();
  const counters = new Map<string, TokenCounter>();
  for (const { model } of MODELS) {
    const counter = createTokenCounter({ model });
    await counter.ready();
    counters.set(model, counter);
  }
  const rounds = quick ? 3 : 9;
  const reps = quick ? 2 : 5;
  const rows: TokenCountRow[] = [];
  for (const { model, reference } of MODELS) {
    const counter = counters.get(model)!;
    for (const kind of TEXT_KINDS) {
      const messages = texts[kind];
      const ref = referenceCount(reference, messages);
      const nowCount = prompt(counter, messages);
      const beforeCount = prompt(before, messages);
      const nowNs: number[] = [];
      const beforeNs: number[] = [];
      for (let r = 0; r < rounds; r++) {
        if (r % 2 === 0) {
          nowNs.push(timeNsPerMessage(counter, messages, reps));
          beforeNs.push(timeNsPerMessage(before, messages, reps));
        } else {
          beforeNs.push(timeNsPerMessage(before, messages, reps));
          nowNs.push(timeNsPerMessage(counter, messages, reps));
        }
      }
      const nowUs = median(nowNs) / 1e3;
      const beforeUs = median(beforeNs) / 1e3;
      rows.push({
        model,
        kind,
        counting: counter.encoding,
        messages: messages.length,
        reference: ref,
        now: nowCount,
        before: beforeCount,
        nowRatio: nowCount / ref,
        beforeRatio: beforeCount / ref,
        nowUsPerMessage: nowUs,
        beforeUsPerMessage: beforeUs,
        costRatio: nowUs / beforeUs,
      });
    }
  }
  printTable(
    "Token counts per model: mem's prompt count / the model's tokenizer (ai-tokenizer count()), and cost per message",
    rows.map((r) => ({
      model: r.model,
      counting: r.counting,
      text: r.kind,
      msgs: r.messages,
      "model's tokenizer": r.reference,
      'mem now': r.now,
      'now / model': r.nowRatio.toFixed(3),
      'before (o200k) / model': r.beforeRatio.toFixed(3),
      'µs/msg now': fmtUs(r.nowUsPerMessage),
      'µs/msg before': fmtUs(r.beforeUsPerMessage),
      'cost now / before': r.costRatio.toFixed(2),
    })),
  );
  const goal = rows.filter((r) => r.counting !== 'o200k_base+10%');
  const worst = (values: number[]) => Math.max(...values);
  printTable('Token counts per model: goals (OpenAI and Claude models)', [
    {
      measure: 'largest |now / model - 1|',
      value: `${(100 * worst(goal.map((r) => Math.abs(r.nowRatio - 1)))).toFixed(2)} %`,
      target: '<= 1 %',
    },
    {
      measure: 'largest |before / model - 1|',
      value: `${(100 * worst(goal.map((r) => Math.abs(r.beforeRatio - 1)))).toFixed(2)} %`,
      target: '(the before)',
    },
    {
      measure: 'largest cost per message now / before',
      value: worst(goal.map((r) => r.costRatio)).toFixed(2),
      target: '<= 1.5',
    },
  ]);
  return rows;
}
