/**
 * What a summary keeps: counts the entities (names, numbers, dates, tool outcomes, and the answer
 * key's decisions and action items) of a conversation, then how many of them survive in its
 * summary — the extractive fallback's at several compression ratios, and a Chain of Density
 * summary from a real model when a key is configured.
 *
 *   pnpm --filter @mem/summarizers entities [conversation.json] [--ratios 0.1,0.2,0.3]
 *     [--provider openai|anthropic] [--model <id>] [--loops 5] [--markdown]
 *
 * Provider keys come from the environment: OPENAI_API_KEY (and OPENAI_BASE_URL for an
 * OpenAI-compatible server such as Ollama: http://localhost:11434/v1), ANTHROPIC_API_KEY.
 * Prints a table and one JSON line.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createTokenCounter } from '@mem/core';
import {
  extractiveSummary,
  type Message,
  messageSchema,
  runSummarizer,
  type Summarizer,
} from '@mem/core/summarize';
import { z } from 'zod';
import {
  type AnswerKey,
  type Coverage,
  conversationText,
  coverage,
  type Entity,
  extractEntities,
  keyEntities,
} from './entities.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    ratios: { type: 'string', default: '0.1,0.2,0.3' },
    provider: { type: 'string' },
    model: { type: 'string' },
    loops: { type: 'string', default: '5' },
    markdown: { type: 'boolean', default: false },
  },
});
const bundled = fileURLToPath(
  new URL('../../core/examples/support-desk.conversation.json', import.meta.url),
);
const path = positionals[0] ?? bundled;

const fileSchema = z.union([
  z.object({ messages: z.array(messageSchema) }),
  z.object({ sessions: z.array(z.object({ messages: z.array(messageSchema) })).min(1) }),
]);
const file = fileSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
// messageSchema checks every field; its inferred type spells optional fields as `| undefined`.
const messages = (
  'sessions' in file ? file.sessions.flatMap((s) => s.messages) : file.messages
) as Message[];
const keyPath = path.replace(/\.conversation\.json$|\.json$/, '.entities.json');
const key: AnswerKey | null =
  keyPath !== path && existsSync(keyPath)
    ? (JSON.parse(readFileSync(keyPath, 'utf8')) as AnswerKey)
    : null;

const counter = createTokenCounter({ model: 'gpt-4o' });
const originalTokens = messages.reduce((sum, m) => sum + counter.countMessage(m), 0);
const mechanical = extractEntities(messages);
const answerKey = key === null ? [] : keyEntities(key, conversationText(messages));

interface Column {
  label: string;
  tokens: number;
  mechanical: Coverage[];
  key: Coverage[];
}
const columns: Column[] = [];
const measure = (label: string, summary: string) =>
  columns.push({
    label,
    tokens: counter.countText(summary),
    mechanical: coverage(mechanical, summary),
    key: coverage(answerKey, summary),
  });

const ratios = values.ratios.split(',').map(Number);
for (const ratio of ratios) {
  const targetTokens = Math.round(originalTokens * ratio);
  measure(
    `extractive ${Math.round(ratio * 100)}%`,
    extractiveSummary(messages, { targetTokens, counter }),
  );
}
if (values.provider !== undefined) {
  const summarizer = await llmSummarizer(values.provider, values.model);
  const ratio = ratios[Math.floor(ratios.length / 2)] ?? 0.2;
  const outcome = await runSummarizer({
    summarizer,
    messages,
    instructions: null,
    loops: Number(values.loops),
    targetTokens: Math.round(originalTokens * ratio),
    timeoutMs: 300_000,
    counter,
    originalTokens,
  });
  if (outcome.source === 'fallback') {
    console.error(`the model's summary was not usable (${outcome.fallbackReason}):`, outcome.error);
    process.exitCode = 1;
  } else {
    measure(`${values.provider} CoD ${Math.round(ratio * 100)}%`, outcome.text);
  }
}

async function llmSummarizer(provider: string, model: string | undefined): Promise<Summarizer> {
  const { createChainOfDensitySummarizer, withRetries } = await import('../src/index.ts');
  if (provider === 'openai') {
    const { default: OpenAI } = await import('openai');
    const { openAIChatModel } = await import('../src/openai.ts');
    const chat = openAIChatModel(new OpenAI(), { model: model ?? 'gpt-4o-mini' });
    return createChainOfDensitySummarizer({ model: withRetries(chat) });
  }
  if (provider === 'anthropic') {
    const { default: Anthropic } = await import('@anthropic-ai/sdk');
    const { anthropicChatModel } = await import('../src/anthropic.ts');
    const chat = anthropicChatModel(new Anthropic(), { model: model ?? 'claude-haiku-4-5' });
    return createChainOfDensitySummarizer({ model: withRetries(chat) });
  }
  throw new Error(`--provider must be openai or anthropic, got ${JSON.stringify(provider)}`);
}

// ------------------------------------------------------------------ report
const CATEGORIES = ['names', 'numbers', 'dates', 'tools', 'decisions', 'action_items'] as const;
function rows(source: 'mechanical' | 'key', entities: readonly Entity[]): string[][] {
  return CATEGORIES.flatMap((category) => {
    const total = entities.filter((e) => e.category === category).length;
    if (total === 0) return [];
    const cells = columns.map((c) => {
      const kept = c[source].find((r) => r.category === category)?.kept ?? 0;
      return `${kept} (${Math.round((kept / total) * 100)}%)`;
    });
    return [[`${source === 'key' ? 'key: ' : ''}${category}`, String(total), ...cells]];
  });
}
const header = ['entities', 'original', ...columns.map((c) => `${c.label} (${c.tokens} tok)`)];
const body = [...rows('mechanical', mechanical), ...rows('key', answerKey)];
if (values.markdown) {
  console.log(`| ${header.join(' | ')} |`);
  console.log(`|${header.map(() => '---').join('|')}|`);
  for (const row of body) console.log(`| ${row.join(' | ')} |`);
} else {
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]?.length ?? 0)));
  const line = (r: string[]) => r.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ');
  console.log(`${path}: ${messages.length} messages, ${originalTokens} tokens`);
  console.log(line(header));
  for (const row of body) console.log(line(row));
}
console.log(
  JSON.stringify({
    script: 'compare-entities',
    conversation: path,
    originalTokens,
    columns: columns.map((c) => ({
      label: c.label,
      tokens: c.tokens,
      mechanical: c.mechanical,
      key: c.key,
    })),
  }),
);
