import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AskAnswer, TurnDetail } from '../replay/replay-types.ts';
import { MAX_QUESTION_CHARS } from './ask-question.ts';
import { type PlaygroundServer, startPlaygroundServer } from './main.ts';

/** A window, and a summarizer that indexes what it archives into a knowledge base. */
const WITH_KNOWLEDGE = {
  short_term_memory_strategy: [{ memory_strategy_id: 'max_tokens', memory_max_tokens: 4000 }],
  long_term_memory_strategy: [
    {
      long_term_memory_id: 'summarizer',
      interaction_threshold_qty: 10,
      interaction_keep: 2,
      knowledge_base: { collection_id: 'support-desk', search_mode: 'always' },
    },
  ],
};
/** No window: every turn sends the whole history, so this replay runs for minutes. */
const LONG_REPLAY = { profile: {}, store: 'memory', conversation: 'generated', turns: 10_000 };
/** Session 1 (Monday): BW-20418's declared value, EUR 11,400, in s1-m010 and s1-m011 only. */
const QUESTION = 'What was the declared value of shipment BW-20418?';
const FACT = /11,?400/;
const FACT_IDS = ['s1-m010', 's1-m011'];

type ErrorBody = { error: string; field?: string; busy?: string; limit?: string };

async function post<T = AskAnswer>(
  server: PlaygroundServer,
  path: string,
  body: unknown,
  signal: AbortSignal = AbortSignal.timeout(90_000),
) {
  const started = performance.now();
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal,
  });
  const json = (await response.json()) as T & ErrorBody;
  return { status: response.status, body: json, ms: performance.now() - started };
}

describe('POST /api/ask: the context the next LLM call would get for a question', () => {
  let server: PlaygroundServer;
  const logged: string[] = [];
  beforeAll(async () => {
    server = await startPlaygroundServer({ env: {}, log: (line) => logged.push(line) });
  });
  afterAll(() => server.close());

  it('answers 409 before any replay', async () => {
    const { status, body } = await post(server, '/api/ask', { question: QUESTION });
    expect(status).toBe(409);
    expect(body.error).toMatch(/No replay yet.*\/api\/replay/);
  });

  it('answers 409 at once while a replay runs, and has nothing to ask after it was stopped', async () => {
    const client = new AbortController();
    const long = post(server, '/api/replay', LONG_REPLAY, client.signal).catch((e: Error) => e);
    let busy: Awaited<ReturnType<typeof post>> | undefined;
    for (let i = 0; i < 200 && busy?.body.busy !== 'replay'; i++) {
      busy = await post(server, '/api/ask', { question: QUESTION });
      if (busy.body.busy !== 'replay') await new Promise((r) => setTimeout(r, 25));
    }
    expect(busy?.status).toBe(409);
    expect(busy?.body.busy).toBe('replay');
    expect(busy?.body.error).toMatch(/replay is in progress/);
    expect(busy!.ms).toBeLessThan(2_000);
    client.abort();
    expect(await long).toBeInstanceOf(Error);
    // Once the stopped replay has ended, the worker holds no thread: nothing to ask.
    let after = await post(server, '/api/ask', { question: QUESTION });
    for (let i = 0; i < 200 && after.body.busy === 'replay'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      after = await post(server, '/api/ask', { question: QUESTION });
    }
    expect(after.status).toBe(409);
    expect(after.body.error).toMatch(/No replay yet/);
  });

  it('after a replay with a knowledge base, brings back a fact from the first session and marks its messages', async () => {
    const replay = await post<{ turns: unknown[] }>(server, '/api/replay', {
      profile: WITH_KNOWLEDGE,
      store: 'sqlite',
    });
    expect(replay.status).toBe(200);
    const last = replay.body.turns.length - 1;
    const before = await fetch(`${server.url}/api/turn/${last}`).then(
      (r) => r.json() as Promise<TurnDetail>,
    );

    const { status, body } = await post(server, '/api/ask', { question: QUESTION });
    expect(status).toBe(200);
    expect(body.question).toBe(QUESTION);
    expect(body.turns).toBe(replay.body.turns.length);
    // The context ends with the question, every message counted.
    expect(body.context.at(-1)).toMatchObject({ kind: 'question', role: 'user', text: QUESTION });
    expect(body.context[0]).toMatchObject({ kind: 'system' });
    for (const item of body.context) expect(item.tokens).toBeGreaterThan(0);
    const sum = body.context.reduce((n, item) => n + item.tokens, 0);
    expect(body.tokenCount).toBeGreaterThanOrEqual(sum);
    expect(body.truncated).toBe(false);

    // The asked fact is in what the LLM would see, and its messages are marked.
    expect(body.context.map((c) => c.text).join('\n')).toMatch(FACT);
    expect(body.knowledgeHits.length).toBeGreaterThan(0);
    for (const hit of body.knowledgeHits) {
      expect(hit).toMatchObject({ chunkId: expect.any(String), text: expect.any(String) });
      expect(hit.rank).toBeGreaterThan(0);
      expect(Array.isArray(hit.messageIds)).toBe(true);
    }
    const present = new Map(body.present.map((p) => [p.id, p.how]));
    expect(FACT_IDS.some((id) => present.has(id))).toBe(true);
    expect(FACT_IDS.filter((id) => present.has(id)).map((id) => present.get(id))).toContain(
      'retrieved',
    );

    // Marks agree with the context and follow the history's order.
    const sent = new Set(body.context.map((c) => c.id));
    const quoted = new Set(body.knowledgeHits.flatMap((h) => h.messageIds));
    for (const p of body.present) {
      if (p.how === 'window') expect(sent.has(p.id), p.id).toBe(true);
      else expect(quoted.has(p.id) && !sent.has(p.id), p.id).toBe(true);
    }
    const order = before.history.map((m) => m.id);
    const positions = body.present.map((p) => order.indexOf(p.id));
    expect(positions.every((n) => n >= 0)).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    const window = body.context.filter((c) => c.kind === 'window').map((c) => c.id);
    expect(window.every((id) => present.get(id) === 'window')).toBe(true);

    // Nothing was stored: the thread is as the replay left it, and asking again answers the same.
    const after = await fetch(`${server.url}/api/turn/${last}`).then(
      (r) => r.json() as Promise<TurnDetail>,
    );
    expect(after.history).toEqual(before.history);
    expect((await fetch(`${server.url}/api/turn/${last + 1}`)).status).toBe(404);
    const again = await post(server, '/api/ask', { question: QUESTION });
    expect(again.body.present).toEqual(body.present);
    expect(again.body.context.map((c) => c.text)).toEqual(body.context.map((c) => c.text));
  });

  it.each<[string, unknown, RegExp]>([
    ['missing', undefined, /"question" is missing/],
    ['a number', 42, /"question" must be a string, got number/],
    ['null', null, /"question" must be a string, got null/],
    ['empty', '', /"question" is empty/],
    ['only whitespace', ' \n\t ', /"question" is empty/],
    ['one character too long', 'x'.repeat(MAX_QUESTION_CHARS + 1), /at most 4,000/],
  ])(
    'refuses a question that is %s with 400 naming the field',
    async (_name, question, message) => {
      const { status, body } = await post(server, '/api/ask', { question });
      expect(status).toBe(400);
      expect(body.field).toBe('question');
      expect(body.error).toMatch(message);
    },
  );

  it('takes a question of exactly the limit, and refuses other methods and bodies clearly', async () => {
    const longest = await post(server, '/api/ask', {
      question: `${'where is BW-20418 '.repeat(400)}`.slice(0, MAX_QUESTION_CHARS),
    });
    expect(longest.status).toBe(200);
    expect(longest.body.context.at(-1)?.kind).toBe('question');
    expect((await fetch(`${server.url}/api/ask`)).status).toBe(405);
    const form = await fetch(`${server.url}/api/ask`, { method: 'POST', body: 'question=x' });
    expect(form.status).toBe(415);
    const broken = await fetch(`${server.url}/api/ask`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"question": ',
    });
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as ErrorBody).error).toMatch(/not valid JSON/);
  });

  it('logged no server error', () => {
    expect(logged).toEqual([]);
  });
});
