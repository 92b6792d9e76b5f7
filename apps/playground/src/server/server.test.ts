import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ProviderServer,
  startProviderServer,
} from '../../../../packages/summarizers/src/__fixtures__/provider-server.ts';
import { PRESETS } from '../replay/presets.ts';
import type {
  ContextItem,
  HistoryItem,
  KnowledgeHitView,
  ReplayStats,
  SummaryView,
  TurnDetail,
  TurnSnapshot,
} from '../replay/replay-types.ts';
import type { HistoryPage, SessionRange } from './contract.ts';
import { type PlaygroundServer, startPlaygroundServer } from './main.ts';

const combined = PRESETS.find((p) => p.name === 'combined')!.profile;

/** Every field any route answers; each test reads the ones of its route. */
interface Body {
  ok?: boolean;
  error: string;
  issues: { path: string; message: string }[];
  conversation: { title: string; sessions: SessionRange[] };
  presets: { name: string }[];
  stores: string[];
  defaultStore: string;
  store: string;
  chat: { enabled: boolean; help: string; provider?: string; model?: string };
  turns: TurnSnapshot[];
  stats: ReplayStats;
  summaries: SummaryView[];
  turn: TurnSnapshot;
  context: ContextItem[];
  history: HistoryItem[];
  knowledgeHits: KnowledgeHitView[];
  historyPage: HistoryPage;
  reply: string;
  detail: TurnDetail;
}

async function call(server: PlaygroundServer, path: string, body?: unknown, raw?: string) {
  const init: RequestInit =
    body === undefined && raw === undefined
      ? {}
      : {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: raw ?? JSON.stringify(body),
        };
  const response = await fetch(`${server.url}${path}`, init);
  return { status: response.status, body: (await response.json()) as Body };
}

describe('playground server without a model', () => {
  let server: PlaygroundServer;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'mem-playground-data-'));
    server = await startPlaygroundServer({ host: '127.0.0.1', env: {}, dataDir });
  });
  afterAll(async () => {
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('listens on loopback and describes the conversation, presets, stores and chat', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const { status, body } = await call(server, '/api/config');
    expect(status).toBe(200);
    expect(body.conversation.title).toContain('Brightwell');
    expect(body.conversation.sessions).toHaveLength(4);
    expect(body.conversation.sessions[0]).toMatchObject({ id: 's1-hamburg-damage', firstTurn: 0 });
    const [first, second] = body.conversation.sessions;
    expect(second?.firstTurn).toBe((first?.lastTurn ?? 0) + 1);
    expect(body.presets.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['short-term', 'summarizer', 'neuralyzer', 'combined']),
    );
    expect(body.stores).toEqual(['sqlite', 'memory']);
    expect(body.defaultStore).toBe('sqlite');
    expect(body.chat.enabled).toBe(false);
    expect(body.chat.help).toContain('OPENAI_API_KEY');
    expect(body.chat.help).toContain('11434');
  });

  it('validates profiles with core, listing every bad path', async () => {
    expect((await call(server, '/api/validate', { profile: combined })).body).toEqual({ ok: true });
    const bad = await call(server, '/api/validate', {
      profile: {
        long_term_memory_strategy: [{ long_term_memory_id: 'summarizer', interaction_keep: 'two' }],
      },
    });
    expect(bad.status).toBe(200);
    expect(bad.body.ok).toBe(false);
    expect(bad.body.issues.map((i: { path: string }) => i.path)).toContain(
      'long_term_memory_strategy[0].interaction_keep',
    );
    const syntax = await call(server, '/api/validate', {
      profile: '{"short_term_memory_strategy": [',
    });
    expect(syntax.body.ok).toBe(false);
    expect(syntax.body.issues).toHaveLength(1);
    expect(syntax.body.issues[0]!.path).toBe('');
    expect(syntax.body.issues[0]!.message).toMatch(/JSON/);
  });

  it('replays the bundled conversation through the combined preset, on a SQLite file by default', async () => {
    const { status, body } = await call(server, '/api/replay', { profile: combined });
    expect(status).toBe(200);
    expect(body.store).toBe('sqlite');
    // The replay's thread lives in a real SQLite file under the server's data dir.
    const files = (await readdir(dataDir, { recursive: true })).filter((f) =>
      f.endsWith('.sqlite'),
    );
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^mem-playground-worker-[^/]+\/mem-playground-[^/]+\/replay\.sqlite$/);
    expect((await stat(join(dataDir, files[0]!))).size).toBeGreaterThan(0);
    expect(body.turns.length).toBeGreaterThan(40);
    expect(body.stats.turns).toBe(body.turns.length);
    expect(body.stats.compactions).toBeGreaterThanOrEqual(1);
    expect(body.stats.sentShare).toBeCloseTo(body.stats.tokensSent / body.stats.tokensStored);
    const compactions = body.turns.flatMap((t) => t.events).filter((e) => e.kind === 'compaction');
    expect(compactions.length).toBeGreaterThanOrEqual(1);
    expect(body.summaries.length).toBeGreaterThanOrEqual(1);
    expect(body.summaries[0]!.ratio).toBeGreaterThan(0);
    for (const t of body.turns) expect(t.promptTokens).toBeLessThanOrEqual(t.historyTokens + 20);
  });

  it('answers the detail of a turn, whole or with one page of its history', async () => {
    const { body: replayed } = await call(server, '/api/replay', {
      profile: combined,
      store: 'memory',
    });
    const last = replayed.turns.length - 1;
    const { status, body } = await call(server, `/api/turn/${last}`);
    expect(status).toBe(200);
    expect(body.turn).toEqual(replayed.turns[last]);
    expect(Object.keys(body).sort()).toEqual([
      'context',
      'history',
      'knowledgeHits',
      'summaries',
      'turn',
    ]);
    expect(body.context[0]).toMatchObject({ kind: 'system', role: 'system' });
    expect(body.context.map((c) => c.kind)).toContain('window');
    expect(body.history.some((m) => m.state === 'archived')).toBe(true);
    const paged = await call(server, `/api/turn/${last}?historyLimit=10`);
    expect(paged.body.history).toHaveLength(10);
    expect(paged.body.historyPage.total).toBe(body.history.length);
    expect(paged.body.history.at(-1)).toEqual(body.history.at(-1));
    const original = replayed.summaries[0]!.originalMessageIds[0]!;
    const around = await call(
      server,
      `/api/turn/${last}?historyLimit=10&historyAround=${original}`,
    );
    expect(around.body.history.map((m) => m.id)).toContain(original);
    expect((await call(server, '/api/turn/99999')).status).toBe(404);
    expect((await call(server, '/api/turn/abc')).status).toBe(400);
  });

  it('refuses to chat without a model, with the help text', async () => {
    const { status, body } = await call(server, '/api/chat', { message: 'hello' });
    expect(status).toBe(409);
    expect(body.error).toContain('OPENAI_API_KEY');
  });

  it('answers bad requests with clear JSON errors', async () => {
    const bad = await call(server, '/api/replay', undefined, '{"profile": ');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/not valid JSON/);
    const invalid = await call(server, '/api/replay', {
      profile: { short_term_memory_strategy: 3 },
      store: 'memory',
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.issues[0]!.path).toContain('short_term_memory_strategy');
    expect((await call(server, '/api/replay', { profile: combined, store: 'redis' })).status).toBe(
      400,
    );
    expect((await call(server, '/api/nope')).status).toBe(404);
    const form = await fetch(`${server.url}/api/validate`, { method: 'POST', body: 'profile=x' });
    expect(form.status).toBe(415);
    const huge = await call(server, '/api/validate', { profile: 'x'.repeat(6 * 1024 * 1024) });
    expect(huge.status).toBe(413);
  });

  it('serves the page with the right content types', async () => {
    const expected: [string, RegExp][] = [
      ['/', /^text\/html/],
      ['/index.html', /^text\/html/],
      ['/app.js', /^text\/javascript/],
      ['/chart.js', /^text\/javascript/],
      ['/style.css', /^text\/css/],
    ];
    for (const [path, type] of expected) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type'), path).toMatch(type);
      await response.arrayBuffer();
    }
    expect(await (await fetch(`${server.url}/`)).text()).toContain('id="profile-editor"');
    expect((await fetch(`${server.url}/../package.json`)).status).toBe(404);
    expect((await fetch(`${server.url}/missing.js`)).status).toBe(404);
  });
});

describe('playground server with an OpenAI-compatible model', () => {
  let provider: ProviderServer;
  let server: PlaygroundServer;
  beforeAll(async () => {
    provider = await startProviderServer();
    server = await startPlaygroundServer({
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
  });

  it('continues the replayed thread with a live chat turn', async () => {
    const config = await call(server, '/api/config');
    expect(config.body.chat).toMatchObject({
      enabled: true,
      provider: 'openai',
      model: 'local-model',
    });
    expect(JSON.stringify(config.body)).not.toContain('test-key');
    expect((await call(server, '/api/chat', { message: 'too early' })).status).toBe(409);
    const { body: replayed } = await call(server, '/api/replay', {
      profile: combined,
      store: 'memory',
    });
    provider.respondWith(() => 'BW-20418 left Rotterdam on Tuesday.');
    const { status, body } = await call(server, '/api/chat', {
      message: 'When did BW-20418 leave?',
    });
    expect(status).toBe(200);
    expect(body.reply).toBe('BW-20418 left Rotterdam on Tuesday.');
    expect(body.turn.index).toBe(replayed.turns.length);
    expect(body.turn.sessionId).toBe('live');
    // The thread's stats come with the turn, aggregated on the server: the page only shows them.
    const before = replayed.stats;
    expect(body.stats).toMatchObject({
      turns: before.turns + 1,
      tokensStored: before.tokensStored + body.turn.historyTokens,
      tokensSent: before.tokensSent + body.turn.promptTokens,
      compactions:
        before.compactions + body.turn.events.filter((e) => e.kind === 'compaction').length,
      erasures: before.erasures + body.turn.events.filter((e) => e.kind === 'erasure').length,
    });
    expect(body.stats.messages).toBeGreaterThan(before.messages);
    expect(body.stats.sentShare).toBeCloseTo(body.stats.tokensSent / body.stats.tokensStored);
    expect(body.stats.totalMs).toBeGreaterThan(before.totalMs);
    const window = body.detail.context.filter((c) => c.kind === 'window');
    expect(window.at(-1)?.text).toBe('When did BW-20418 leave?');
    expect(body.detail.history.at(-1)).toMatchObject({ role: 'assistant', text: body.reply });
    const request = provider.requests.at(-1)!;
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.headers.authorization).toBe('Bearer test-key');
    const sent = request.body as { model: string; messages: { role: string; content: unknown }[] };
    expect(sent.model).toBe('local-model');
    expect(sent.messages[0]!.role).toBe('system');
    expect(sent.messages.at(-1)).toMatchObject({
      role: 'user',
      content: 'When did BW-20418 leave?',
    });
    const detail = await call(server, `/api/turn/${body.turn.index}`);
    expect(detail.body.turn).toEqual(body.turn);
  });

  it('reports a failing model as 502', async () => {
    provider.plan({ status: 400, errorMessage: 'model not found' });
    const { status, body } = await call(server, '/api/chat', { message: 'again' });
    expect(status).toBe(502);
    expect(body.error).toContain('model');
  });
});

describe('playground server with an Anthropic model', () => {
  let provider: ProviderServer;
  let server: PlaygroundServer;
  beforeAll(async () => {
    provider = await startProviderServer();
    server = await startPlaygroundServer({
      env: { ANTHROPIC_API_KEY: 'test-ant-key', ANTHROPIC_BASE_URL: provider.url },
    });
  });
  afterAll(async () => {
    await server.close();
    await provider.close();
  });

  it('sends the context as an Anthropic Messages request and appends the reply', async () => {
    const config = await call(server, '/api/config');
    expect(config.body.chat).toMatchObject({ enabled: true, provider: 'anthropic' });
    await call(server, '/api/replay', { profile: combined, store: 'memory' });
    provider.respondWith(() => 'We chose Baltic Lane Carriers.');
    const { status, body } = await call(server, '/api/chat', {
      message: 'Which carrier did we choose for Gdańsk?',
    });
    expect(status).toBe(200);
    expect(body.reply).toBe('We chose Baltic Lane Carriers.');
    expect(body.detail.history.at(-1)).toMatchObject({ role: 'assistant', text: body.reply });
    const request = provider.requests.at(-1)!;
    expect(request.path).toBe('/v1/messages');
    // Anthropic SDK 1.x sends the key as a bearer token (0.x used x-api-key).
    expect(request.headers.authorization ?? request.headers['x-api-key']).toContain('test-ant-key');
    const sent = request.body as {
      system?: unknown;
      messages: { role: string; content: unknown }[];
    };
    // The system prompt travels in `system`, never as a message; the question is the last turn.
    expect(JSON.stringify(sent.system)).toContain('Brightwell');
    expect(sent.messages.every((m) => m.role === 'user' || m.role === 'assistant')).toBe(true);
    expect(JSON.stringify(sent.messages.at(-1))).toContain('Which carrier did we choose');
  });
});
