import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Anthropic from '@anthropic-ai/sdk';
import { createMemoryEngine, type MemoryEngineEvents } from '@mem/core';
import { isSummaryMessage, type Message, messageText } from '@mem/core/summarize';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
// Core's fixture (core does not publish its fixtures; the bundled example is read the same way).
import { PROVIDER_ERROR_REPLIES } from '../../core/src/summarize/__fixtures__/provider-error-replies.ts';
import { type ProviderServer, startProviderServer } from './__fixtures__/provider-server.ts';
import { anthropicChatModel } from './anthropic.ts';
import { fakeCodLlm } from './chain-of-density/__fixtures__/fake-cod-llm.ts';
import type { ChatModel } from './chat-model.ts';
import { createChainOfDensitySummarizer } from './index.ts';
import { openAIChatModel } from './openai.ts';

/**
 * Issue 10, case 4 through the real SDKs and a local server speaking each provider's wire
 * format: a model whose Chain of Density reply carries a provider's or the network's error text
 * as the summary. The engine must fall back to the extractive summary, say so with an event,
 * store nothing of that text and keep every message.
 */
let server: ProviderServer;
beforeAll(async () => {
  server = await startProviderServer();
});
afterEach(() => server.reset());
afterAll(() => server.close());

const PROFILE = {
  short_term_memory_strategy: [{ memory_strategy_id: 'max_tokens', memory_max_tokens: 6000 }],
  long_term_memory_strategy: [
    {
      long_term_memory_id: 'summarizer',
      interaction_threshold_qty: 4,
      cod_max_loops: 2,
      interaction_keep: 1,
    },
  ],
};

const conversation = JSON.parse(
  readFileSync(
    fileURLToPath(new URL('../../core/examples/support-desk.conversation.json', import.meta.url)),
    'utf8',
  ),
) as { sessions: { messages: Message[] }[] };
/** The first turns of session 1 of the bundled conversation: one compaction. */
const messages = conversation.sessions[0]!.messages.slice(1, 30);

/** A Chain of Density reply whose summary is `text`, valid for every pass's schema. */
const codReply = (text: string) =>
  JSON.stringify({
    entities: ['Elbwerk'],
    summary: text,
    missing_entities: ['BW-20418'],
    denser_summary: text,
  });

const providers: { name: string; model: () => ChatModel }[] = [
  {
    name: 'openai',
    model: () =>
      openAIChatModel(new OpenAI({ apiKey: 'test', baseURL: `${server.url}/v1`, maxRetries: 0 }), {
        model: 'gpt-4o-mini',
      }),
  },
  {
    name: 'anthropic',
    model: () =>
      anthropicChatModel(new Anthropic({ apiKey: 'test', baseURL: server.url, maxRetries: 0 }), {
        model: 'claude-haiku-4-5',
      }),
  },
];

async function run(model: ChatModel) {
  const engine = createMemoryEngine({
    profile: PROFILE,
    summarizer: createChainOfDensitySummarizer({ model }),
    summarizerTimeout: 20_000,
  });
  const events = { compacted: [], 'summarizer:fallback': [] } as unknown as {
    compacted: MemoryEngineEvents['compacted'][];
    'summarizer:fallback': MemoryEngineEvents['summarizer:fallback'][];
  };
  engine.on('compacted', (e) => events.compacted.push(e));
  engine.on('summarizer:fallback', (e) => events['summarizer:fallback'].push(e));
  const session = engine.session('s');
  for (const m of messages) {
    await session.append(m);
    await session.idle();
  }
  const summaries = (await session.messages()).filter(isSummaryMessage).map(messageText);
  const history = (await session.history()).map((m) => m.id);
  return { events, summaries, history };
}

describe.each(providers)('error text as the summary, through $name', ({ model }) => {
  it.each(PROVIDER_ERROR_REPLIES)(
    '%s: the extractive fallback runs, nothing of it is stored',
    async (reply) => {
      server.respondWith(() => codReply(reply));
      const { events, summaries, history } = await run(model());

      expect(events.compacted.length).toBeGreaterThanOrEqual(1);
      expect(events.compacted.map((c) => c.source)).toEqual(events.compacted.map(() => 'fallback'));
      expect(events['summarizer:fallback']).toHaveLength(events.compacted.length);
      // The error says what was wrong with the reply: unusable, not malformed JSON.
      const error = (events['summarizer:fallback'][0]?.error as Error & { cause?: unknown })?.cause;
      expect(String((error as Error | undefined)?.message)).toContain('was unusable');
      expect(String((error as Error | undefined)?.message)).not.toContain('JSON instructions');
      // Reported as unusable (not as an error), with the check's sentence, never "it it".
      expect(events['summarizer:fallback'][0]?.reason).toBe('unusable');
      expect(String((error as Error | undefined)?.message)).not.toMatch(/\bit it\b/);
      expect(summaries).toHaveLength(1);
      for (const text of summaries) {
        expect(text).not.toContain(reply);
        expect(text).not.toMatch(/sk-proj|\*{8}|ECONNREFUSED|status code 500|Bad Gateway/);
      }
      expect(history).toEqual(messages.map((m) => m.id));
    },
  );
});

describe('error text in a later Chain of Density pass (openai)', () => {
  it('keeps the model’s earlier pass; the error text is not stored', async () => {
    const llm = fakeCodLlm();
    server.respondWith((request) =>
      /Pass 2 of 2\./.test(request.prompt)
        ? codReply('Incorrect API key provided: sk-proj-Zz99************wXyZ.')
        : llm.respond(request),
    );
    const { events, summaries, history } = await run(providers[0]!.model());
    expect(events['summarizer:fallback']).toEqual([]);
    expect(events.compacted.map((c) => c.source)).toContain('summarizer');
    expect(summaries).toHaveLength(1);
    expect(summaries[0]).toContain(llm.calls.at(-1)!.summary);
    expect(summaries[0]).not.toMatch(/sk-proj|API key/);
    expect(history).toEqual(messages.map((m) => m.id));
  });
});
