import { createMemoryEngine, Memory, type MemoryEngine, MemoryManager } from '@mem/core';
import {
  isSummaryMessage,
  type KnowledgeBase,
  type Message,
  messageText,
  promptProblems,
  type Store,
} from '@mem/core/backend';
import { generateConversation } from '@mem/core/testing';
import { describe, expect, inject, it } from 'vitest';
import { createRedisKnowledgeBase } from './redis-knowledge-base.ts';
import { createRedisStore } from './redis-store.ts';
import type { RedisConnection } from './redis-store-options.ts';

const url = `redis://127.0.0.1:${inject('redisPort')}`;
const nodes = inject('clusterPorts').map((port) => ({ host: '127.0.0.1', port }));
const SERVERS: { name: string; connection: () => RedisConnection }[] = [
  { name: 'standalone Redis', connection: () => ({ url }) },
  { name: 'Redis Cluster', connection: () => ({ nodes }) },
];
let runs = 0;
/** A key prefix no other test uses. */
const fresh = () => {
  runs += 1;
  return `e2e${Date.now().toString(36)}${runs}`;
};

const COLLECTION = 'session-summaries';
const THRESHOLD = 20;
const WINDOW = 8000;
/** A summarizer profile indexing into a knowledge base, searched on every context, in an 8k window. */
const PROFILE = {
  short_term_memory_strategy: [{ memory_strategy_id: 'max_tokens', memory_max_tokens: WINDOW }],
  long_term_memory_strategy: [
    {
      long_term_memory_id: 'summarizer',
      interaction_threshold_qty: THRESHOLD,
      cod_max_loops: 2,
      interaction_keep: 3,
      instructions: 'Focus on action items and decisions made.',
      knowledge_base: { collection_id: COLLECTION, search_mode: 'always', top_k: 3 },
    },
  ],
};

/** Keeps the user lines of what it summarizes, bounded by the target. */
const summarizer = (input: string, options: { targetTokens: number }) => {
  const lines = input.split('\n').filter((l) => l.toLowerCase().startsWith('user'));
  return `Decisions and action items: ${lines.slice(0, 8).join(' | ')}`.slice(
    0,
    options.targetTokens * 3,
  );
};

/** Splits a flat conversation into turns (a user message and what follows it). */
function turnsOf(messages: readonly Message[]): Message[][] {
  const turns: Message[][] = [];
  for (const m of messages) {
    if (m.role === 'user' || turns.length === 0) turns.push([m]);
    else turns.at(-1)!.push(m);
  }
  return turns;
}

/** The agent loop: append the user message, build the context, append the replies, settle. */
async function replay(engine: MemoryEngine, sessionId: string, messages: readonly Message[]) {
  const session = engine.session(sessionId);
  const tokenCounts: number[] = [];
  for (const [user, ...replies] of turnsOf(messages)) {
    await session.append(user!);
    const context = await session.context();
    tokenCounts.push(context.tokenCount);
    expect(promptProblems(context.messages)).toEqual([]);
    if (replies.length > 0) {
      await session.append(replies, {
        usage: { inputTokens: context.tokenCount, outputTokens: 50 },
      });
    }
    await session.idle();
  }
  return tokenCounts;
}

function engineOn(store: Store, knowledgeBase: KnowledgeBase): MemoryEngine {
  return createMemoryEngine({ profile: PROFILE, store, knowledgeBase, summarizer });
}

describe.each(SERVERS)('the engine end to end on $name', ({ connection }) => {
  it('200 interactions with tool calls and errors: compacts, loses nothing, links summaries, retrieves knowledge, and a second process sees the same session', async () => {
    const prefix = fresh();
    const messages = generateConversation({ interactions: 200, seed: 3, errorRate: 0.15 });
    const store = createRedisStore({ ...connection(), prefix });
    const kb = createRedisKnowledgeBase({ ...connection(), prefix });
    const engine = engineOn(store, kb);
    const compactions: number[] = [];
    engine.on('compacted', (e) => compactions.push(e.record.originalMessageIds.length));

    const tokenCounts = await replay(engine, 's', messages);
    for (const count of tokenCounts) expect(count).toBeLessThanOrEqual(WINDOW);
    expect(compactions.length).toBeGreaterThanOrEqual(Math.floor(200 / (THRESHOLD + 1)));

    const session = engine.session('s');
    const history = await session.history();
    expect(history.map((m) => m.id)).toEqual(messages.map((m) => m.id));
    const active = await session.messages();
    expect(active.filter(isSummaryMessage)).toHaveLength(1);
    expect(active.filter((m) => m.role === 'user').length).toBeLessThanOrEqual(THRESHOLD + 1);
    const records = await session.summaries();
    expect(records.length).toBe(compactions.length);
    for (let i = 1; i < records.length; i++) {
      expect(records[i]!.previousSummaryId).toBe(records[i - 1]!.id);
    }
    expect(await kb.count(COLLECTION, { sessionId: 's' })).toBeGreaterThan(records.length);

    const early = messages.find((m) => m.role === 'tool' && m.isError === true)!;
    await session.append({ role: 'user', content: `What happened with ${messageText(early)}?` });
    const context = await session.context();
    expect(context.knowledge.length).toBeGreaterThan(0);
    expect(context.knowledge.length).toBeLessThanOrEqual(3);
    expect(context.messages.some((m) => m.metadata?.kind === 'knowledge')).toBe(true);
    expect(promptProblems(context.messages)).toEqual([]);
    expect(context.tokenCount).toBeLessThanOrEqual(WINDOW);
    await engine.idle();

    // A new process: new clients on the same server see the same session and index.
    const store2 = createRedisStore({ ...connection(), prefix });
    const kb2 = createRedisKnowledgeBase({ ...connection(), prefix });
    const engine2 = engineOn(store2, kb2);
    const session2 = engine2.session('s');
    expect(await session2.history()).toEqual(await session.history());
    expect(await session2.messages()).toEqual(await session.messages());
    expect(await session2.summaries()).toEqual(await session.summaries());
    expect(await kb2.count(COLLECTION)).toBe(await kb.count(COLLECTION, { sessionId: 's' }));
    const settled = await session.context();
    const reopened = await session2.context();
    expect(reopened.messages.map((m) => m.id)).toEqual(settled.messages.map((m) => m.id));
    expect(reopened.knowledge.map((h) => h.chunk.id)).toEqual(
      settled.knowledge.map((h) => h.chunk.id),
    );
    expect(reopened.knowledge.length).toBeGreaterThan(0);
    await Promise.all([store.close(), kb.close(), store2.close(), kb2.close()]);
  });
});

describe.each(SERVERS)('facades on $name', ({ connection }) => {
  it("Memory (strategy 'summary') summarizes into the shared store and reopens by sessionId", async () => {
    const prefix = fresh();
    const store = createRedisStore({ ...connection(), prefix });
    const memory = new Memory({ strategy: 'summary', store, sessionId: 'chat-1', summarizer });
    for (let i = 1; i <= 15; i++) await memory.add(`Question ${i} about City${i}`, `Answer ${i}`);
    await memory.idle();
    const messages = await memory.messages();
    expect(isSummaryMessage(messages[0]!)).toBe(true);
    expect(messages.filter((m) => m.role === 'user').length).toBeLessThan(15);

    const other = createRedisStore({ ...connection(), prefix });
    const again = new Memory({
      strategy: 'summary',
      store: other,
      sessionId: 'chat-1',
      summarizer,
    });
    expect(await again.messages()).toEqual(messages);
    expect(await again.text()).toBe(await memory.text());
    await Promise.all([store.close(), other.close()]);
  });

  it('MemoryManager exports a session and imports it back into another namespace', async () => {
    const prefix = fresh();
    const store = createRedisStore({ ...connection(), prefix, namespace: 'a' });
    const memory = new MemoryManager({ store, maxEntries: 8, recentWindow: 3 });
    for (let i = 0; i < 10; i++) {
      await memory.addUserMessage('s', `Please check order ${i}`);
      await memory.addToolCall('s', 'lookup', { order: i });
      await memory.addToolResult('s', 'lookup', `order ${i} shipped`, { isError: i % 4 === 0 });
      await memory.addAssistantMessage('s', `Order ${i} is on its way.`);
    }
    await memory.idle();
    const state = await memory.exportSession('s');
    expect(state.entries.some((e) => e.type === 'summary')).toBe(true);
    expect(state.entries.filter((e) => e.type !== 'summary')).toHaveLength(40);

    const target = createRedisStore({ ...connection(), prefix, namespace: 'b' });
    const fresh2 = new MemoryManager({ store: target });
    await fresh2.importSession(state);
    expect(await fresh2.exportSession('s')).toStrictEqual(state);
    expect(await fresh2.getContextForLLM('s')).toBe(await memory.getContextForLLM('s'));
    expect(JSON.parse(JSON.stringify(await fresh2.exportSession('s')))).toStrictEqual(
      JSON.parse(JSON.stringify(state)),
    );
    await Promise.all([store.close(), target.close()]);
  });
});
