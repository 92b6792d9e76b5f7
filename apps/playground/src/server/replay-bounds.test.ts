import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PRESETS } from '../replay/presets.ts';
import { type PlaygroundServer, startPlaygroundServer } from './main.ts';

const combined = PRESETS.find((p) => p.name === 'combined')!.profile;
/** No short-term window: every turn sends the whole history, the slowest profile to replay. */
const LONG_REPLAY = { profile: {}, store: 'memory', conversation: 'generated', turns: 10_000 };

interface Answer {
  status: number;
  ms: number;
  body: {
    ok?: boolean;
    error: string;
    limit?: string;
    issues: { path: string; message: string }[];
    turns: unknown[];
  };
}

async function call(
  server: PlaygroundServer,
  path: string,
  body?: unknown,
  signal: AbortSignal = AbortSignal.timeout(60_000),
): Promise<Answer> {
  const started = performance.now();
  const response = await fetch(`${server.url}${path}`, {
    ...(body === undefined
      ? {}
      : {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }),
    signal,
  });
  const json = (await response.json()) as Answer['body'];
  return { status: response.status, ms: performance.now() - started, body: json };
}

describe('a long replay runs off the request thread', () => {
  let server: PlaygroundServer;
  beforeAll(async () => {
    server = await startPlaygroundServer({ env: {} });
    // The worker is up and the bundled conversation loaded before timing anything.
    expect((await call(server, '/api/replay', { profile: {}, store: 'memory' })).status).toBe(200);
  });
  afterAll(() => server.close());

  it('answers GET /api/config at once while a 10,000-turn replay runs, and stops that replay when its client goes away', async () => {
    const client = new AbortController();
    const long = call(server, '/api/replay', LONG_REPLAY, client.signal).catch((e: Error) => e);
    // Ten requests while the replay runs (it takes minutes); each one answers within 2 s.
    for (let i = 0; i < 10; i++) {
      const config = await call(server, '/api/config', undefined, AbortSignal.timeout(10_000));
      expect(config.status).toBe(200);
      expect(config.ms).toBeLessThan(2_000);
    }
    client.abort();
    expect(await long).toBeInstanceOf(Error);
    // The abandoned replay stopped: the next one runs at once instead of queueing behind it.
    const next = await call(
      server,
      '/api/replay',
      { profile: combined, store: 'memory' },
      AbortSignal.timeout(60_000),
    );
    expect(next.status).toBe(200);
    expect(next.body.turns.length).toBe(52);
  });
});

describe('replay limits', () => {
  let server: PlaygroundServer;
  beforeAll(async () => {
    server = await startPlaygroundServer({ env: {}, limits: { timeLimitMs: 3_000 } });
  });
  afterAll(() => server.close());

  it('refuses more turns than the stated cap with a 400 naming it', async () => {
    const { status, body } = await call(server, '/api/replay', { ...LONG_REPLAY, turns: 10_001 });
    expect(status).toBe(400);
    expect(body.error).toMatch(/from 1 to 10000 \(the playground's limit per replay\)/);
  });

  it('refuses a chunk overlap that explodes the knowledge index, in /api/validate and /api/replay alike', async () => {
    const profile = {
      long_term_memory_strategy: [
        {
          long_term_memory_id: 'summarizer',
          interaction_threshold_qty: 1,
          knowledge_base: { collection_id: 'session-summaries' },
          text_splitter: { chunk_size: 16, chunk_overlap: 15 },
        },
      ],
    };
    const path = 'long_term_memory_strategy[0].text_splitter.chunk_overlap';
    const validate = await call(server, '/api/validate', { profile });
    expect(validate.body.ok).toBe(false);
    expect(validate.body.issues).toEqual([
      { path, message: expect.stringMatching(/at most half of chunk_size \(here at most 8\)/) },
    ]);
    const replay = await call(server, '/api/replay', { profile, store: 'memory' });
    expect(replay.status).toBe(400);
    expect(replay.body.issues.map((i) => i.path)).toEqual([path]);
    const half = structuredClone(profile);
    half.long_term_memory_strategy[0]!.text_splitter.chunk_overlap = 8;
    expect((await call(server, '/api/validate', { profile: half })).body).toEqual({ ok: true });
  });

  it('stops a replay that runs past the time limit with a 422 naming the limit, and keeps serving', async () => {
    const { status, body, ms } = await call(server, '/api/replay', LONG_REPLAY);
    expect(status).toBe(422);
    expect(body.limit).toBe('time');
    expect(body.error).toMatch(
      /stopped( at turn [\d,]+ of 10,000)?: it ran past the playground's limit of 3 s per replay/,
    );
    expect(ms).toBeLessThan(30_000);
    const next = await call(server, '/api/replay', { profile: combined, store: 'memory' });
    expect(next.status).toBe(200);
  });
});

/** Summarizes and indexes tiny chunks every turn: the worker's heap grows until its limit. */
const INDEX_EVERY_TURN = {
  long_term_memory_strategy: [
    {
      long_term_memory_id: 'summarizer',
      interaction_threshold_qty: 1,
      knowledge_base: { collection_id: 'session-summaries' },
      text_splitter: { chunk_size: 16, chunk_overlap: 8 },
    },
  ],
};

describe('replay memory limit', () => {
  let server: PlaygroundServer;
  beforeAll(async () => {
    server = await startPlaygroundServer({ env: {}, limits: { memoryLimitMb: 96 } });
  });
  afterAll(() => server.close());

  it('stops a replay whose worker outgrows the memory limit with a 422, and the next replay runs', async () => {
    const { status, body } = await call(
      server,
      '/api/replay',
      { profile: INDEX_EVERY_TURN, store: 'memory', conversation: 'generated', turns: 10_000 },
      AbortSignal.timeout(240_000),
    );
    expect(status).toBe(422);
    expect(body.limit).toBe('memory');
    expect(body.error).toMatch(/more than the playground's limit of 96 MB/);
    const next = await call(server, '/api/replay', { profile: combined, store: 'memory' });
    expect(next.status).toBe(200);
  }, 300_000);
});

describe('a replay worker that is ended mid-replay', () => {
  let server: PlaygroundServer;
  const root = mkdtempSync(join(tmpdir(), 'playground-bounds-'));
  beforeAll(async () => {
    // The runner makes the worker's directory in the data dir.
    server = await startPlaygroundServer({ env: {}, dataDir: root, limits: { memoryLimitMb: 64 } });
  });
  afterAll(async () => {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('leaves no SQLite files behind when the worker is ended (out of memory)', async () => {
    const { status, body } = await call(
      server,
      '/api/replay',
      { profile: INDEX_EVERY_TURN, store: 'sqlite', conversation: 'generated', turns: 10_000 },
      AbortSignal.timeout(240_000),
    );
    expect(status).toBe(422);
    expect(body.limit).toBe('memory');
    const ours = () => readdirSync(root).filter((name) => name.startsWith('mem-playground'));
    await vi.waitFor(() => expect(ours()).toEqual([]), { timeout: 5_000 });
  }, 300_000);
});
