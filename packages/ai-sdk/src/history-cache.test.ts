import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createInMemoryBackend,
  createInMemoryStore,
  createMemoryEngine,
  type MemoryEngine,
  type Store,
} from '@mem/core';
import { createRedisStore } from '@mem/store-redis';
import { createSqliteStore } from '@mem/store-sqlite';
import { generateText, type ModelMessage, wrapLanguageModel } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { textResult } from './__fixtures__/model-results.ts';
import { line } from './__fixtures__/sdk-under-test.ts';
import { memoryMiddleware } from './index.ts';

/**
 * Two store instances over the same data, as two processes (or two engines) have them: one
 * in-memory backend, one SQLite file, one Redis key prefix.
 */
function sharedStores(): Array<[name: string, open: () => [Store, Store]]> {
  const dir = mkdtempSync(join(tmpdir(), 'mem-ai-sdk-cache-'));
  const opened: Store[] = [];
  let n = 0;
  afterAll(async () => {
    await Promise.all(opened.map((s) => s.close()));
    rmSync(dir, { recursive: true, force: true });
  });
  const pair = (create: () => Store): [Store, Store] => {
    const both: [Store, Store] = [create(), create()];
    opened.push(...both);
    return both;
  };
  const url = `redis://127.0.0.1:${inject('redisPort')}`;
  return [
    [
      'one in-memory backend',
      () => {
        const backend = createInMemoryBackend();
        return pair(() => createInMemoryStore({ backend }));
      },
    ],
    [
      'one SQLite file',
      () => {
        const path = join(dir, `shared-${n++}.db`);
        return pair(() => createSqliteStore({ path }));
      },
    ],
    [
      'one standalone Redis prefix',
      () => {
        const prefix = `aic${process.pid}x${Date.now().toString(36)}x${n++}`;
        return pair(() => createRedisStore({ url, prefix }));
      },
    ],
  ];
}

const user = (content: string): ModelMessage => ({ role: 'user', content });
const assistant = (content: string): ModelMessage => ({ role: 'assistant', content });

/** A chat app's side: it keeps its own copy of the conversation and re-sends all of it. */
function chatApp(engine: MemoryEngine, sessionId = 'chat-1') {
  const answers: string[] = [];
  const model = new MockLanguageModelV3({
    doGenerate: async () => textResult(answers.shift() ?? 'no answer left'),
  });
  const wrapped = wrapLanguageModel({ model, middleware: memoryMiddleware({ engine, sessionId }) });
  return {
    model,
    /** Sends `messages` (the history the app holds and its new question); the model says `answer`. */
    async send(messages: ModelMessage[], answer: string) {
      answers.push(answer);
      const { text } = await generateText({ model: wrapped, messages });
      return text;
    },
  };
}

const stored = async (engine: MemoryEngine, id = 'chat-1') =>
  (await engine.session(id).messages()).map(line);

for (const [name, open] of sharedStores()) {
  describe(`memoryMiddleware re-sending the history, two engines on ${name}`, () => {
    it('stores only the new question when another engine stored the turn before it', async () => {
      const [mine, theirs] = open();
      const engine = createMemoryEngine({ store: mine, profile: {} });
      const here = chatApp(engine);
      const there = chatApp(createMemoryEngine({ store: theirs, profile: {} }));
      await here.send([user('u1')], 'a1');
      await here.send([user('u1'), assistant('a1'), user('u2')], 'a2');

      // The next turn is served by another process, which stores it.
      await there.send(
        [user('u1'), assistant('a1'), user('u2'), assistant('a2'), user('u3')],
        'a3',
      );
      await here.send(
        [
          user('u1'),
          assistant('a1'),
          user('u2'),
          assistant('a2'),
          user('u3'),
          assistant('a3'),
          user('u4'),
        ],
        'a4',
      );

      expect(await stored(engine)).toEqual([
        'user: u1',
        'assistant: a1',
        'user: u2',
        'assistant: a2',
        'user: u3',
        'assistant: a3',
        'user: u4',
        'assistant: a4',
      ]);
    });

    it('applies the rules to what the other engine stored, not to what it knew before', async () => {
      const [mine, theirs] = open();
      const engine = createMemoryEngine({ store: mine, profile: {} });
      const here = chatApp(engine);
      await here.send([user('u1')], 'a1');
      await here.send([user('u1'), assistant('a1'), user('u2')], 'a2');
      // Another engine appends a turn the app never saw.
      await createMemoryEngine({ store: theirs, profile: {} })
        .session('chat-1')
        .append([user('from elsewhere'), assistant('noted')] as never);

      // The app re-sends its own copy: rule c (changed) against the store, so the client wins.
      await here.send([user('u1'), assistant('a1'), user('u2'), assistant('a2'), user('u3')], 'a3');

      expect(await stored(engine)).toEqual([
        'user: u1',
        'assistant: a1',
        'user: u2',
        'assistant: a2',
        'user: u3',
        'assistant: a3',
      ]);
    });

    it('replaces an answer another engine regenerated between two calls with the one the app re-sends', async () => {
      const [mine, theirs] = open();
      const engine = createMemoryEngine({ store: mine, profile: {} });
      const here = chatApp(engine);
      await here.send([user('u1')], 'a1');
      await here.send([user('u1'), assistant('a1'), user('u2')], 'a2');
      // Another process regenerates the last answer: as many messages as before, another text.
      const elsewhere = createMemoryEngine({ store: theirs, profile: {} }).session('chat-1');
      await elsewhere.pop();
      await elsewhere.append({ role: 'assistant', content: 'a2, regenerated' });

      // The app never saw it and re-sends its own copy: rule c, the client's history wins.
      await here.send([user('u1'), assistant('a1'), user('u2'), assistant('a2'), user('u3')], 'a3');

      expect(await stored(engine)).toEqual([
        'user: u1',
        'assistant: a1',
        'user: u2',
        'assistant: a2',
        'user: u3',
        'assistant: a3',
      ]);
    });
  });
}

describe('memoryMiddleware re-sending the history, one engine', () => {
  it('compares a re-sent history with what it kept, not with a tail read from the store', async () => {
    const store = createInMemoryStore();
    let reads = 0;
    const counted: Store = new Proxy(store, {
      get(target, key, receiver) {
        if (key !== 'read') return Reflect.get(target, key, receiver);
        return (...args: Parameters<Store['read']>) => {
          // The engine's own catch-up read (`afterSeq`) before `context()` is not a comparison.
          if (args[1]?.afterSeq === undefined) reads++;
          return target.read(...args);
        };
      },
    });
    const engine = createMemoryEngine({ store: counted, profile: {} });
    const app = chatApp(engine);
    await app.send([user('u1')], 'a1');
    await app.send([user('u1'), assistant('a1'), user('u2')], 'a2');
    reads = 0;

    await app.send([user('u1'), assistant('a1'), user('u2'), assistant('a2'), user('u3')], 'a3');

    expect(reads).toBe(0);
    expect((await stored(engine)).slice(-2)).toEqual(['user: u3', 'assistant: a3']);
  });

  it('keeps the 64 most recently used sessions of an engine, and reads the store for others', async () => {
    let reads = 0;
    const store = createInMemoryStore();
    const counted: Store = new Proxy(store, {
      get(target, key, receiver) {
        if (key !== 'read') return Reflect.get(target, key, receiver);
        return (...args: Parameters<Store['read']>) => {
          if (args[1]?.afterSeq === undefined) reads++;
          return target.read(...args);
        };
      },
    });
    const engine = createMemoryEngine({ store: counted, profile: {} });
    const apps = Array.from({ length: 65 }, (_, i) => chatApp(engine, `chat-${i}`));
    for (const app of apps) {
      await app.send([user('u1')], 'a1');
      await app.send([user('u1'), assistant('a1'), user('u2')], 'a2');
    }
    const third = [user('u1'), assistant('a1'), user('u2'), assistant('a2'), user('u3')];

    reads = 0;
    await (apps[64] as (typeof apps)[number]).send(third, 'a3');
    const newest = reads;
    reads = 0;
    await (apps[0] as (typeof apps)[number]).send(third, 'a3');
    const oldest = reads;

    expect({ newest, oldest }).toEqual({ newest: 0, oldest: 1 });
    for (const id of ['chat-0', 'chat-64']) {
      expect((await stored(engine, id)).slice(-3)).toEqual([
        'assistant: a2',
        'user: u3',
        'assistant: a3',
      ]);
    }
  });

  it('replaces a message another handle of the same engine changed between two calls', async () => {
    const engine = createMemoryEngine({ store: createInMemoryStore(), profile: {} });
    const app = chatApp(engine);
    await app.send([user('u1')], 'a1');
    await app.send([user('u1'), assistant('a1'), user('u2')], 'a2');
    const handle = engine.session('chat-1');
    await handle.pop();
    await handle.append({ role: 'assistant', content: 'a2, by hand' });

    await app.send([user('u1'), assistant('a1'), user('u2'), assistant('a2'), user('u3')], 'a3');

    expect(await stored(engine)).toEqual([
      'user: u1',
      'assistant: a1',
      'user: u2',
      'assistant: a2',
      'user: u3',
      'assistant: a3',
    ]);
  });

  it('after the app edits an earlier message, the next re-send stores only its new question', async () => {
    const engine = createMemoryEngine({ store: createInMemoryStore(), profile: {} });
    const app = chatApp(engine);
    await app.send([user('u1')], 'a1');
    await app.send([user('u1'), assistant('a1'), user('u2')], 'a2');
    // The user edits their second question: the stored tail from there is replaced.
    await app.send([user('u1'), assistant('a1'), user('u2, edited')], 'a2 again');

    await app.send(
      [user('u1'), assistant('a1'), user('u2, edited'), assistant('a2 again'), user('u3')],
      'a3',
    );

    expect(await stored(engine)).toEqual([
      'user: u1',
      'assistant: a1',
      'user: u2, edited',
      'assistant: a2 again',
      'user: u3',
      'assistant: a3',
    ]);
  });

  it("with changedHistory: 'error', refuses an edited history after re-sends it kept", async () => {
    const engine = createMemoryEngine({ store: createInMemoryStore(), profile: {} });
    const model = new MockLanguageModelV3({ doGenerate: async () => textResult('a') });
    const wrapped = wrapLanguageModel({
      model,
      middleware: memoryMiddleware({ engine, sessionId: 'chat-1', changedHistory: 'error' }),
    });
    await generateText({ model: wrapped, messages: [user('u1')] });
    await generateText({ model: wrapped, messages: [user('u1'), assistant('a'), user('u2')] });

    const edited = generateText({
      model: wrapped,
      messages: [user('u1'), assistant('a'), user('u2, edited')],
    });

    await expect(edited).rejects.toThrow(/changedHistory: 'error'/);
    expect(await stored(engine)).toEqual(['user: u1', 'assistant: a', 'user: u2', 'assistant: a']);
  });
});
