import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInMemoryStore, type Message, messageText, type Store } from '@mem/core';
import { createRedisStore, type RedisConnection } from '@mem/store-redis';
import { createSqliteStore } from '@mem/store-sqlite';
import { afterAll, inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Port of the standalone redis-server the test setup started. */
    redisPort: number;
    /** Ports of the three masters of the Redis Cluster the test setup started. */
    clusterPorts: number[];
  }
}

/* The parts of an `ai` major the specification drives; each test file passes its own `ai`. */
export type Prompt = Array<{ role: string; content: unknown }>;
export interface MockModel {
  doGenerateCalls: Array<{ prompt: Prompt }>;
  doStreamCalls: Array<{ prompt: Prompt }>;
}
export interface SdkUnderTest {
  generateText(options: object): PromiseLike<{
    text: string;
    response: { messages: Array<{ role: string; content: unknown }> };
  }>;
  streamText(options: object): {
    text: PromiseLike<string>;
    textStream: ReadableStream<string>;
    consumeStream(options?: { onError?: (error: unknown) => void }): PromiseLike<void>;
  };
  wrapLanguageModel(options: { model: never; middleware: never }): unknown;
  stepCountIs(n: number): unknown;
  tool(definition: object): unknown;
  simulateReadableStream(options: {
    chunks: unknown[];
    chunkDelayInMs?: number | null;
  }): ReadableStream<unknown>;
  MockLanguageModel: new (options: { doGenerate?: unknown; doStream?: unknown }) => MockModel;
}

/** One line per stored message: role, text, tool calls or the call a result answers. */
export function line(m: Message): string {
  const calls = (m.toolCalls ?? []).map((c) => `${c.name}#${c.id} ${c.arguments}`);
  if (m.role === 'tool') return `tool#${m.toolCallId}: ${messageText(m)}`;
  return `${m.role}: ${messageText(m)}${calls.length > 0 ? ` -> ${calls.join(', ')}` : ''}`;
}

/** The text of the newest user message of a provider prompt. */
export function lastUserText(prompt: Prompt): string {
  const user = prompt.filter((m) => m.role === 'user').at(-1);
  const parts = Array.isArray(user?.content) ? (user.content as Array<{ text?: unknown }>) : [];
  return parts.map((p) => (typeof p.text === 'string' ? p.text : '')).join('');
}

/**
 * The stores every store-touching case runs on: the in-memory store, SQLite (a file in a
 * temporary directory, removed after the file's tests), and a standalone Redis and a Redis
 * Cluster started on loopback by the test setup (a key prefix no other store uses).
 */
export function storeKinds(): Array<[name: string, create: () => Store]> {
  let dir: string | undefined;
  let n = 0;
  const opened: Store[] = [];
  afterAll(async () => {
    await Promise.all(opened.map((store) => store.close()));
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });
  const redis = (connection: RedisConnection) => () => {
    const prefix = `ai${process.pid}x${Date.now().toString(36)}x${n++}`;
    const store = createRedisStore({ ...connection, prefix });
    opened.push(store);
    return store;
  };
  const url = `redis://127.0.0.1:${inject('redisPort')}`;
  const nodes = inject('clusterPorts').map((port) => ({ host: '127.0.0.1', port }));
  return [
    ['the in-memory store', () => createInMemoryStore()],
    [
      'SQLite',
      () => {
        dir ??= mkdtempSync(join(tmpdir(), 'mem-ai-sdk-'));
        return createSqliteStore({ path: join(dir, `mem-${n++}.db`) });
      },
    ],
    ['standalone Redis', redis({ url })],
    ['Redis Cluster', redis({ nodes })],
  ];
}
