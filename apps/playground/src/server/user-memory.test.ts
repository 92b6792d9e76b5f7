/**
 * User memory through the HTTP API, on real SQLite files: a replay with a user stores each
 * session of the bundled conversation as its own mem session of that user; a question then runs
 * in a new session of the user and gets its knowledge from the earlier sessions, labelled by
 * session; the facts route reads the user's facts from the store; "forget this user" erases the
 * user (checked in the SQLite file itself) and reports the counts.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteKnowledgeBase, createSqliteStore } from '@mem/store-sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ProviderServer,
  startProviderServer,
} from '../../../../packages/summarizers/src/__fixtures__/provider-server.ts';
import { loadConversation } from '../conversation/load-conversation.ts';
import type { Conversation } from '../replay/replay-types.ts';
import type {
  AskResponse,
  ChatResponse,
  ConfigResponse,
  ForgetUserResponse,
  ReplayResponse,
  TurnResponse,
  UserFactsResponse,
} from './contract.ts';
import { BUNDLED_CONVERSATION } from './conversations.ts';
import { type PlaygroundServer, startPlaygroundServer } from './main.ts';

const COLLECTION = 'support-desk';
/** A window, and a summarizer that indexes what it archives into a knowledge base. */
const WITH_KNOWLEDGE = {
  short_term_memory_strategy: [{ memory_strategy_id: 'max_tokens', memory_max_tokens: 4000 }],
  long_term_memory_strategy: [
    {
      long_term_memory_id: 'summarizer',
      interaction_threshold_qty: 10,
      interaction_keep: 2,
      knowledge_base: { collection_id: COLLECTION, search_mode: 'always' },
    },
  ],
};
const USER = 'maren';
/** Session 1 (Monday): BW-20418's declared value, EUR 11,400, in s1-m010 and s1-m011 only. */
const QUESTION = 'What was the declared value of shipment BW-20418?';
const FIRST_SESSION = 's1-hamburg-damage';
const FACT = /11,?400/;
const FACT_IDS = ['s1-m010', 's1-m011'];

type ErrorBody = { error: string; field?: string; busy?: string; replayNeeded?: boolean };

async function request<T>(server: PlaygroundServer, path: string, body?: unknown) {
  const response = await fetch(`${server.url}${path}`, {
    ...(body === undefined
      ? {}
      : {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }),
    signal: AbortSignal.timeout(90_000),
  });
  return { status: response.status, body: (await response.json()) as T & ErrorBody };
}

/** The SQLite file of the replay the server holds now (one per worker directory). */
async function replayFile(dataDir: string): Promise<string> {
  const files = (await readdir(dataDir, { recursive: true })).filter((f) =>
    f.endsWith('replay.sqlite'),
  );
  expect(files).toHaveLength(1);
  return join(dataDir, files[0]!);
}

describe('user memory in the playground API', () => {
  let server: PlaygroundServer;
  let dataDir: string;
  let conversation: Conversation;
  let replayed: ReplayResponse;
  const logged: string[] = [];
  beforeAll(async () => {
    conversation = await loadConversation(BUNDLED_CONVERSATION);
    dataDir = await mkdtemp(join(tmpdir(), 'mem-playground-user-'));
    server = await startPlaygroundServer({ env: {}, dataDir, log: (line) => logged.push(line) });
  });
  afterAll(async () => {
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('replays each bundled session as its own session of the chosen user', async () => {
    const { status, body } = await request<ReplayResponse>(server, '/api/replay', {
      profile: WITH_KNOWLEDGE,
      user: USER,
    });
    expect(status).toBe(200);
    replayed = body;
    expect(body.store).toBe('sqlite');
    expect(body.user).toEqual({
      id: USER,
      sessions: conversation.sessions.map((s) => ({
        sessionId: `${USER}:${s.id}`,
        conversationSessionId: s.id,
        title: s.title,
      })),
      chatSessionId: `${USER}:playground-chat`,
    });
    // The store has the four sessions, bound to the user (the chat session is still empty).
    const facts = await request<UserFactsResponse>(server, '/api/user/facts');
    expect(facts.status).toBe(200);
    expect([...facts.body.sessions].sort()).toEqual(
      conversation.sessions.map((s) => `${USER}:${s.id}`).sort(),
    );
    // Every session opens with its own system prompt (one thread would have dropped the
    // repeated ones), and a turn's window holds only messages of its own session.
    for (const session of conversation.sessions) {
      const first = body.turns.find((t) => t.sessionId === session.id)!;
      const detail = await request<TurnResponse>(server, `/api/turn/${first.index}`);
      const prefix = `${session.id.slice(0, 2)}-`;
      expect(detail.body.context[0]).toMatchObject({ kind: 'system', id: `${prefix}m001` });
      const window = detail.body.context.filter((c) => c.kind === 'window');
      expect(window.length).toBeGreaterThan(0);
      for (const item of window) expect(item.id.startsWith(prefix), item.id).toBe(true);
    }
    // Later sessions recall the earlier ones during the replay, and say where a hit came from.
    const last = await request<TurnResponse>(server, `/api/turn/${body.turns.length - 1}`);
    expect(last.body.turn.sessionId).toBe('s4-carrier-review');
    const fromOthers = [];
    for (const turn of body.turns.filter((t) => t.sessionId !== FIRST_SESSION)) {
      const detail = await request<TurnResponse>(server, `/api/turn/${turn.index}`);
      for (const hit of detail.body.knowledgeHits) {
        const own = `${USER}:${turn.sessionId}`;
        expect(hit.currentSession).toBe(hit.sessionId === own);
        if (!hit.currentSession) fromOthers.push(hit);
      }
    }
    expect(fromOthers.length).toBeGreaterThan(0);
  });

  it("a question asked in a new session of the user brings back knowledge from the user's earlier sessions, labelled by session", async () => {
    const { status, body } = await request<AskResponse>(server, '/api/ask', {
      question: QUESTION,
    });
    expect(status).toBe(200);
    // A new session: no window of the replayed sessions, only what the user's memory brings.
    expect(body.context.filter((c) => c.kind === 'window')).toEqual([]);
    expect(body.context.at(-1)).toMatchObject({ kind: 'question', text: QUESTION });
    expect(body.context.map((c) => c.text).join('\n')).toMatch(FACT);
    expect(body.knowledgeHits.length).toBeGreaterThan(0);
    const sessions = new Set(replayed.user!.sessions.map((s) => s.sessionId));
    for (const hit of body.knowledgeHits) {
      expect(sessions.has(hit.sessionId), hit.sessionId).toBe(true);
      expect(hit.currentSession).toBe(false);
    }
    // The hit quoting the asked fact comes from the first session, dated on that Monday.
    const monday = conversation.sessions[0]!.messages.map((m) => m.createdAt);
    const quoting = body.knowledgeHits.find((h) =>
      FACT_IDS.some((id) => h.messageIds.includes(id)),
    );
    expect(quoting).toMatchObject({ sessionId: `${USER}:${FIRST_SESSION}`, currentSession: false });
    expect(quoting!.at).toBeGreaterThanOrEqual(Math.min(...monday));
    expect(quoting!.at).toBeLessThanOrEqual(Math.max(...monday));
    const present = new Map(body.present.map((p) => [p.id, p.how]));
    expect(FACT_IDS.map((id) => present.get(id))).toContain('retrieved');
    // Nothing was stored: the chat session is still not in the store.
    const facts = await request<UserFactsResponse>(server, '/api/user/facts');
    expect(facts.body.sessions).not.toContain(replayed.user!.chatSessionId);
  });

  it('the facts route lists facts learnt during the replay', async () => {
    const { status, body } = await request<UserFactsResponse>(server, '/api/user/facts');
    expect(status).toBe(200);
    expect(body.user).toBe(USER);
    expect(body.forgotten).toBe(false);
    expect(body.facts.length).toBeGreaterThan(0);
    const sessions = new Set(replayed.user!.sessions.map((s) => s.sessionId));
    const said = new Map(
      conversation.sessions.flatMap((s) => s.messages.map((m) => [m.id, m] as const)),
    );
    const times = [...said.values()].map((m) => m.createdAt);
    for (const fact of body.facts) {
      expect(fact.text.trim()).not.toBe('');
      expect(sessions.has(fact.sessionId ?? ''), fact.sessionId).toBe(true);
      expect(fact.sourceMessageIds.length).toBeGreaterThan(0);
      for (const id of fact.sourceMessageIds) expect(said.get(id)?.role, id).toBe('user');
      expect(fact.updatedAt).toBeGreaterThanOrEqual(Math.min(...times));
      expect(fact.updatedAt).toBeLessThanOrEqual(Math.max(...times));
    }
    // The facts follow the user into the new session: the question's context shows them.
    const ask = await request<AskResponse>(server, '/api/ask', { question: QUESTION });
    const block = ask.body.context.filter((c) => c.kind === 'facts');
    expect(block).toHaveLength(1);
    for (const fact of body.facts) expect(block[0]!.text).toContain(fact.text);
  });

  it('forget this user removes every session, chunk and fact of the user and reports the counts', async () => {
    const file = await replayFile(server.dataDir);
    const before = await request<UserFactsResponse>(server, '/api/user/facts');
    const stored = await countsInFile(file);
    expect(stored.sessions).toBe(conversation.sessions.length);
    expect(stored.chunks).toBeGreaterThan(0);

    const { status, body } = await request<ForgetUserResponse>(server, '/api/user/forget', {
      user: USER,
    });
    expect(status).toBe(200);
    expect(body.user).toBe(USER);
    expect(body.replayNeeded).toBe(true);
    expect(body.message).toMatch(/Replay/);
    expect(body.removed.sessions).toBe(conversation.sessions.length);
    expect(body.removed.facts).toBe(before.body.facts.length);
    expect(body.removed.chunks).toBe(stored.chunks);
    expect(body.removed.messages).toBeGreaterThanOrEqual(
      conversation.sessions.reduce((n, s) => n + s.messages.length, 0),
    );
    // Nothing of the user is left in the SQLite file.
    expect(await countsInFile(file)).toEqual({ sessions: 0, chunks: 0, facts: 0 });
    const after = await request<UserFactsResponse>(server, '/api/user/facts');
    expect(after.body).toEqual({ user: USER, facts: [], sessions: [], forgotten: true });

    // Questions need a new replay; forgetting again removes nothing more.
    const ask = await request<AskResponse>(server, '/api/ask', { question: QUESTION });
    expect(ask.status).toBe(409);
    expect(ask.body.replayNeeded).toBe(true);
    expect(ask.body.error).toMatch(/forgotten: replay/);
    const again = await request<ForgetUserResponse>(server, '/api/user/forget', { user: USER });
    expect(again.body.removed).toEqual({ sessions: 0, messages: 0, facts: 0, chunks: 0 });
    // Another user than the replay's is refused, naming the field.
    const other = await request<ForgetUserResponse>(server, '/api/user/forget', { user: 'ines' });
    expect(other.status).toBe(409);
    expect(other.body.field).toBe('user');

    // A new replay builds the memory again.
    const replay = await request<ReplayResponse>(server, '/api/replay', {
      profile: WITH_KNOWLEDGE,
      user: USER,
    });
    expect(replay.status).toBe(200);
    expect((await request<AskResponse>(server, '/api/ask', { question: QUESTION })).status).toBe(
      200,
    );
  });

  it.each<[string, unknown, RegExp]>([
    ['empty', '', /1 to 64 letters/],
    ['65 characters long', 'a'.repeat(65), /1 to 64 letters/],
    ['a space in it', 'maren smith', /1 to 64 letters/],
    ['a slash in it', '../maren', /1 to 64 letters/],
    ['not ASCII', 'jürgen', /1 to 64 letters/],
    ['a number', 42, /must be a string, got number/],
    ['null', null, /must be a string, got null/],
  ])('a bad user id (%s) is a 400 naming the field user', async (_name, user, message) => {
    const replay = await request(server, '/api/replay', { profile: WITH_KNOWLEDGE, user });
    expect(replay.status).toBe(400);
    expect(replay.body.field).toBe('user');
    expect(replay.body.error).toMatch(message);
    const forget = await request(server, '/api/user/forget', { user });
    expect(forget.status).toBe(400);
    expect(forget.body.field).toBe('user');
  });

  it('a replay without a user is one thread, with no facts to read, and forget names the missing field', async () => {
    const config = await request<ConfigResponse>(server, '/api/config');
    const { status, body } = await request<ReplayResponse>(server, '/api/replay', {
      profile: WITH_KNOWLEDGE,
    });
    expect(status).toBe(200);
    expect(body.user).toBeUndefined();
    expect(new Set(body.turns.map((t) => t.sessionId)).size).toBe(
      config.body.conversation.sessions.length,
    );
    const facts = await request(server, '/api/user/facts');
    expect(facts.status).toBe(409);
    expect(facts.body.error).toMatch(/no user/);
    const missing = await request(server, '/api/user/forget', {});
    expect(missing.status).toBe(400);
    expect(missing.body.field).toBe('user');
    const ask = await request<AskResponse>(server, '/api/ask', { question: QUESTION });
    expect(ask.status).toBe(200);
    for (const hit of ask.body.knowledgeHits) expect(hit.currentSession).toBe(true);
  });

  it('logged no server error', () => {
    expect(logged).toEqual([]);
  });
});

describe('user memory with a chat model', () => {
  let provider: ProviderServer;
  let server: PlaygroundServer;
  let dataDir: string;
  beforeAll(async () => {
    provider = await startProviderServer();
    dataDir = await mkdtemp(join(tmpdir(), 'mem-playground-user-chat-'));
    server = await startPlaygroundServer({
      dataDir,
      env: {
        OPENAI_API_KEY: 'test-key',
        OPENAI_BASE_URL: `${provider.url}/v1`,
        MEM_CHAT_MODEL: 'local-model',
      },
    });
  });
  afterAll(async () => {
    await server.close();
    await provider.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("a chat turn runs in the user's new session: what the user says there becomes facts, and the next prompt carries them", async () => {
    const replay = await request<ReplayResponse>(server, '/api/replay', {
      profile: WITH_KNOWLEDGE,
      user: USER,
    });
    expect(replay.status).toBe(200);
    provider.respondWith(() => 'Noted.');
    const said =
      'My name is Maren and I live in Rotterdam. What was the declared value of BW-20418?';
    const first = await request<ChatResponse>(server, '/api/chat', { message: said });
    expect(first.status).toBe(200);
    // The model got the user's memory from the earlier sessions, in a prompt of the new session.
    const sent = (provider.requests.at(-1)!.body as { messages: { content: unknown }[] }).messages;
    const prompt = JSON.stringify(sent);
    expect(prompt).toMatch(FACT);
    expect(prompt).toContain('another conversation');
    expect(first.body.detail.context.filter((c) => c.kind === 'window').map((c) => c.text)).toEqual(
      [said],
    );

    const facts = await request<UserFactsResponse>(server, '/api/user/facts');
    expect(facts.body.sessions).toContain(replay.body.user!.chatSessionId);
    const userMessage = first.body.turn.userMessageId;
    const learnt = facts.body.facts.filter((f) => f.sessionId === replay.body.user!.chatSessionId);
    // Her name was learnt during the replay already ("Maren here"): the same fact again is no change.
    expect(learnt.map((f) => f.about).sort()).toEqual(['location']);
    for (const fact of learnt) expect(fact.sourceMessageIds).toEqual([userMessage]);
    expect(learnt.map((f) => f.text).join(' ')).toMatch(/Rotterdam/);
    expect(facts.body.facts.filter((f) => f.about === 'name').map((f) => f.text)).toEqual([
      expect.stringMatching(/Maren/),
    ]);

    // The next turn's prompt shows them in the facts block, right after the system prompts.
    const second = await request<ChatResponse>(server, '/api/chat', { message: 'Thanks.' });
    expect(second.status).toBe(200);
    const block = second.body.detail.context.filter((c) => c.kind === 'facts');
    expect(block).toHaveLength(1);
    for (const fact of learnt) expect(block[0]!.text).toContain(fact.text);
    const next = JSON.stringify(provider.requests.at(-1)!.body);
    for (const fact of learnt) expect(next).toContain(fact.text);

    // Forgetting the user takes the chat session too; the chat then waits for a replay.
    const forgot = await request<ForgetUserResponse>(server, '/api/user/forget', { user: USER });
    expect(forgot.body.removed.sessions).toBe(replay.body.user!.sessions.length + 1);
    expect(forgot.body.removed.facts).toBe(facts.body.facts.length);
    const after = await request<ChatResponse>(server, '/api/chat', { message: 'Hello?' });
    expect(after.status).toBe(409);
    expect(after.body.replayNeeded).toBe(true);
  });
});

/** What the SQLite file holds of the user, read with a store and knowledge base of its own. */
async function countsInFile(path: string) {
  const store = createSqliteStore({ path });
  const knowledgeBase = createSqliteKnowledgeBase({ path });
  try {
    const { sessionIds } = await store.list({ userId: USER });
    const chunks = await knowledgeBase.count(COLLECTION, { userId: USER });
    const facts = (await store.userFacts(USER)).facts.length;
    return { sessions: sessionIds.length, chunks, facts };
  } finally {
    await Promise.all([store.close(), knowledgeBase.close()]);
  }
}
