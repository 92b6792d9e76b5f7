import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import Anthropic from '@anthropic-ai/sdk';
import {
  createMemoryEngine,
  type Embedder,
  type MemoryEngine,
  type MemoryEngineEvents,
} from '@mem/core';
import { isSummaryMessage, type Message, promptProblems } from '@mem/core/summarize';
import { createSqliteKnowledgeBase, createSqliteStore } from '@mem/store-sqlite';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type ProviderServer, startProviderServer } from './__fixtures__/provider-server.ts';
import { aiSdkChatModel } from './ai-sdk.ts';
import { anthropicChatModel } from './anthropic.ts';
import { fakeCodLlm } from './chain-of-density/__fixtures__/fake-cod-llm.ts';
import type { ChatModel } from './chat-model.ts';
import { createChainOfDensitySummarizer, type RetryEvent, withRetries } from './index.ts';
import { openAIChatModel, openAIEmbedder } from './openai.ts';

/**
 * SPEC §7 end to end: the engine with a summarizer profile and a knowledge base on
 * @mem/store-sqlite (a real file), summarizing through each provider's real SDK against a local
 * server that speaks the provider's wire format; then the faults a provider really produces.
 */
const dir = mkdtempSync(join(tmpdir(), 'mem-summarizers-e2e-'));
let server: ProviderServer;
let llm: ReturnType<typeof fakeCodLlm>;
beforeAll(async () => {
  server = await startProviderServer();
});
afterEach(() => server.reset());
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const COLLECTION = 'support-desk';
const PROFILE = {
  short_term_memory_strategy: [{ memory_strategy_id: 'max_tokens', memory_max_tokens: 3000 }],
  long_term_memory_strategy: [
    {
      long_term_memory_id: 'summarizer',
      interaction_threshold_qty: 4,
      cod_max_loops: 3,
      interaction_keep: 1,
      instructions: 'Keep ticket numbers and decisions.',
      knowledge_base: { collection_id: COLLECTION, search_mode: 'always', top_k: 3 },
    },
  ],
};

const conversation = JSON.parse(
  readFileSync(
    fileURLToPath(new URL('../../core/examples/support-desk.conversation.json', import.meta.url)),
    'utf8',
  ),
) as { sessions: { messages: Message[] }[] };
/** Session 1 of the bundled conversation without its system prompt (the engine pins it anyway). */
const messages = conversation.sessions[0]!.messages;

function turnsOf(list: readonly Message[]): Message[][] {
  const turns: Message[][] = [];
  for (const m of list) {
    if (m.role === 'user' || turns.length === 0) turns.push([m]);
    else turns.at(-1)!.push(m);
  }
  return turns;
}

type Events = { [E in keyof MemoryEngineEvents]: MemoryEngineEvents[E][] };

function engineFor(
  name: string,
  model: ChatModel,
  options: { timeoutMs?: number; embedder?: Embedder } = {},
) {
  const path = join(dir, `${name}.db`);
  const store = createSqliteStore({ path });
  const knowledgeBase = createSqliteKnowledgeBase(
    options.embedder === undefined ? { path } : { path, embedder: options.embedder },
  );
  const retries: RetryEvent[] = [];
  const summarizer = createChainOfDensitySummarizer({
    model: withRetries(model, {
      maxRetries: 2,
      baseDelayMs: 20,
      maxDelayMs: 200,
      onRetry: (e) => retries.push(e),
    }),
  });
  const engine = createMemoryEngine({
    profile: PROFILE,
    store,
    knowledgeBase,
    summarizer,
    summarizerTimeout: options.timeoutMs ?? 20_000,
  });
  const events = {
    compacted: [],
    'summarizer:fallback': [],
    usage: [],
    'knowledge:indexed': [],
    'compaction:error': [],
  } as unknown as Events;
  for (const name of Object.keys(events) as (keyof MemoryEngineEvents)[]) {
    engine.on(name, (payload) => (events[name] as unknown[]).push(payload));
  }
  return { engine, store, knowledgeBase, events, retries };
}

/** The agent loop over the first `turns` turns of session 1. */
async function replay(engine: MemoryEngine, sessionId: string, turns: number) {
  const session = engine.session(sessionId);
  for (const [user, ...replies] of turnsOf(messages).slice(0, turns)) {
    await session.append(user!);
    const context = await session.context();
    expect(promptProblems(context.messages)).toEqual([]);
    if (replies.length > 0) await session.append(replies);
    await session.idle();
  }
  return session;
}

const providers: { name: string; model: () => ChatModel; path: string }[] = [
  {
    name: 'openai',
    path: '/v1/chat/completions',
    model: () =>
      openAIChatModel(new OpenAI({ apiKey: 'test', baseURL: `${server.url}/v1` }), {
        model: 'gpt-4o-mini',
      }),
  },
  {
    name: 'anthropic',
    path: '/v1/messages',
    model: () =>
      anthropicChatModel(new Anthropic({ apiKey: 'test', baseURL: server.url }), {
        model: 'claude-haiku-4-5',
      }),
  },
  {
    name: 'ai-sdk-openai',
    path: '/v1/chat/completions',
    model: () =>
      aiSdkChatModel(createOpenAI({ apiKey: 'test', baseURL: `${server.url}/v1` }).chat('gpt-4o')),
  },
  {
    name: 'ai-sdk-anthropic',
    path: '/v1/messages',
    model: () =>
      aiSdkChatModel(
        createAnthropic({ apiKey: 'test', baseURL: `${server.url}/v1` })('claude-sonnet-4-5'),
      ),
  },
];

describe.each(providers)('the engine summarizing through $name', ({ name, model, path }) => {
  it('compacts, stores and indexes the summary, and retrieves what it archived on a later turn', async () => {
    llm = fakeCodLlm();
    server.respondWith(llm.respond);
    const { engine, store, knowledgeBase, events } = engineFor(name, model());
    const session = await replay(engine, 's1', 12);

    expect(events['summarizer:fallback']).toEqual([]);
    expect(events.compacted.length).toBeGreaterThanOrEqual(1);
    for (const c of events.compacted) expect(c.source).toBe('summarizer');
    // Every chat call went to this provider's endpoint, three Chain of Density passes per run.
    const calls = server.requests.filter((r) => r.path === path);
    expect(calls.length).toBe(3 * events.compacted.length);
    expect(JSON.stringify(calls[0]!.body)).toContain('Keep ticket numbers and decisions.');
    // One usage event per model call, with the model's id.
    expect(events.usage).toHaveLength(calls.length);
    for (const u of events.usage) {
      expect(u.inputTokens).toBeGreaterThan(0);
      expect(u.model).toBeDefined();
    }

    // The model's last pass is the stored summary; nothing was lost.
    const lastPass = llm.calls.at(-1)!.summary;
    const active = await session.messages();
    const summary = active.find(isSummaryMessage)!;
    expect(summary.content).toContain(lastPass);
    const history = await session.history();
    const replayed = turnsOf(messages).slice(0, 12).flat();
    expect(history.map((m) => m.id)).toEqual(replayed.map((m) => m.id));
    const records = await session.summaries();
    expect(records.length).toBe(events.compacted.length);
    expect(records.at(-1)!.originalMessageIds.length).toBeGreaterThan(0);

    // Indexed, and found again. The active summary is in the prompt already and the earlier one
    // left the knowledge base when it was folded in, so retrieval serves the archived turns:
    // ask about an entity of the first summary.
    expect(events.compacted.length).toBeGreaterThanOrEqual(2);
    expect(events['knowledge:indexed'].length).toBeGreaterThanOrEqual(2);
    expect(await knowledgeBase.count(COLLECTION, { sessionId: 's1' })).toBeGreaterThan(0);
    const firstSummary = llm.calls[2]!.summary;
    const entity = /; ([^;.]+)[;.]/.exec(firstSummary)?.[1];
    expect(entity).toBeDefined();
    await session.append({ role: 'user', content: `Remind me: what about ${entity}?` });
    const context = await session.context();
    expect(context.knowledge.length).toBeGreaterThan(0);
    expect(
      context.knowledge.some(
        (h) => h.chunk.metadata.kind === 'archive' && h.chunk.text.includes(entity!),
      ),
    ).toBe(true);
    const earlier = records[0]!.id;
    const all = await knowledgeBase.search(COLLECTION, `${entity} conversation`, {
      topK: 100,
      sessionId: 's1',
    });
    expect(all.some((h) => h.chunk.metadata.summaryId === earlier)).toBe(false);
    expect(promptProblems(context.messages)).toEqual([]);
    await engine.idle();
    await Promise.all([store.close(), knowledgeBase.close()]);
  });
});

describe('hybrid retrieval with an embedder from the same provider', () => {
  it('embeds summaries and archives through the embeddings endpoint and retrieves by RRF', async () => {
    llm = fakeCodLlm();
    server.respondWith(llm.respond);
    const client = new OpenAI({ apiKey: 'test', baseURL: `${server.url}/v1` });
    const embedder = openAIEmbedder(client, { model: 'text-embedding-3-small', dimensions: 64 });
    const chat = openAIChatModel(client, { model: 'gpt-4o-mini' });
    const { engine, store, knowledgeBase, events } = engineFor('hybrid', chat, { embedder });
    expect(knowledgeBase.capabilities).toMatchObject({ lexical: true, semantic: true });
    const session = await replay(engine, 's1', 12);
    expect(events.compacted.length).toBeGreaterThanOrEqual(2);

    const embeddings = server.requests.filter((r) => r.path === '/v1/embeddings');
    expect(embeddings.length).toBeGreaterThan(0);
    expect(embeddings[0]!.body).toMatchObject({ model: 'text-embedding-3-small', dimensions: 64 });
    const records = await session.summaries();
    const entity = /; ([^;.]+)[;.]/.exec(llm.calls[2]!.summary)?.[1];
    expect(entity).toBeDefined();
    const before = embeddings.length;
    await session.append({ role: 'user', content: `Remind me: what about ${entity}?` });
    const context = await session.context();
    // The question itself was embedded (one more embeddings call), and fused with BM25.
    expect(server.requests.filter((r) => r.path === '/v1/embeddings').length).toBeGreaterThan(
      before,
    );
    expect(
      context.knowledge.some(
        (h) => h.chunk.metadata.kind === 'archive' && h.chunk.text.includes(entity!),
      ),
    ).toBe(true);
    expect(context.knowledge.some((h) => h.chunk.metadata.summaryId === records[0]!.id)).toBe(
      false,
    );
    await engine.idle();
    await Promise.all([store.close(), knowledgeBase.close()]);
  });
});

/** The transcript-free text of every stored summary message. */
async function storedSummaries(engine: MemoryEngine, sessionId: string): Promise<string[]> {
  const active = await engine.session(sessionId).messages();
  return active.filter(isSummaryMessage).map((m) => String(m.content));
}

describe('provider faults during compaction (openai SDK)', () => {
  const openai = () =>
    openAIChatModel(new OpenAI({ apiKey: 'test', baseURL: `${server.url}/v1` }), {
      model: 'gpt-4o-mini',
    });

  it('429 with Retry-After: waits as told, retries, and the model summary lands', async () => {
    llm = fakeCodLlm();
    server.respondWith(llm.respond);
    server.plan({ status: 429, headers: { 'retry-after': '1' } });
    const { engine, events, retries, store, knowledgeBase } = engineFor('rate-limit', openai());
    await replay(engine, 's', 7);
    expect(retries).toHaveLength(1);
    expect(retries[0]!.error.status).toBe(429);
    expect(retries[0]!.delayMs).toBeGreaterThanOrEqual(1000);
    expect(events['summarizer:fallback']).toEqual([]);
    expect(events.compacted[0]?.source).toBe('summarizer');
    expect((await storedSummaries(engine, 's'))[0]).toContain(llm.calls.at(-1)!.summary);
    await Promise.all([store.close(), knowledgeBase.close()]);
  });

  it('a 500 storm: bounded retries, then the extractive fallback and an event; history intact', async () => {
    for (let i = 0; i < 10; i++) server.plan({ status: 500 });
    const { engine, events, retries, store, knowledgeBase } = engineFor('storm', openai());
    await replay(engine, 's', 7);
    // maxRetries 2: three requests for the first pass, then the run falls back.
    expect(server.requests.filter((r) => r.path === '/v1/chat/completions')).toHaveLength(3);
    expect(retries).toHaveLength(2);
    expect(events['summarizer:fallback']).toHaveLength(1);
    expect(events['summarizer:fallback'][0]!.reason).toBe('error');
    expect(events.compacted[0]?.source).toBe('fallback');
    const [summary] = await storedSummaries(engine, 's');
    expect(summary).not.toMatch(/500|internal server error|ProviderError/i);
    const history = await engine.session('s').history();
    expect(history.map((m) => m.id)).toEqual(
      turnsOf(messages)
        .slice(0, 7)
        .flat()
        .map((m) => m.id),
    );
    await Promise.all([store.close(), knowledgeBase.close()]);
  });

  it('a hang past the timeout: the request is cancelled and the fallback runs', async () => {
    server.plan({ hang: true });
    const { engine, events, store, knowledgeBase } = engineFor('hang', openai(), {
      timeoutMs: 1500,
    });
    const started = Date.now();
    await replay(engine, 's', 7);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(events['summarizer:fallback'].map((e) => e.reason)).toEqual(['timeout']);
    expect(events.compacted[0]?.source).toBe('fallback');
    expect(await storedSummaries(engine, 's')).toHaveLength(1);
    await Promise.all([store.close(), knowledgeBase.close()]);
  });

  it('malformed Chain of Density output: retried once, then the fallback; no garbage stored', async () => {
    const garbage = 'Sorry, I cannot produce JSON right now. {"summary": ';
    server.plan({ text: garbage });
    server.plan({ text: garbage });
    const { engine, events, store, knowledgeBase } = engineFor('malformed', openai());
    await replay(engine, 's', 7);
    expect(server.requests.filter((r) => r.path === '/v1/chat/completions')).toHaveLength(2);
    expect(events['summarizer:fallback'].map((e) => e.reason)).toEqual(['error']);
    const [summary] = await storedSummaries(engine, 's');
    expect(summary).not.toContain('Sorry');
    expect(summary).not.toContain('{"summary"');
    // Both calls' tokens were reported even though neither produced a summary.
    expect(events.usage).toHaveLength(2);
    await Promise.all([store.close(), knowledgeBase.close()]);
  });
});
