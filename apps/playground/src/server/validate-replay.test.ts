import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRESETS } from '../replay/presets.ts';
import { type PlaygroundServer, startPlaygroundServer } from './main.ts';

const combined = PRESETS.find((p) => p.name === 'combined')!.profile;

/** A window and a summarizer that indexes into a knowledge base (it compacts on this replay). */
function withKnowledge(collection_id: string, chunk_size = 512, chunk_overlap = 64): unknown {
  return {
    short_term_memory_strategy: [{ memory_strategy_id: 'max_tokens', memory_max_tokens: 4000 }],
    long_term_memory_strategy: [
      {
        long_term_memory_id: 'summarizer',
        interaction_threshold_qty: 10,
        interaction_keep: 2,
        knowledge_base: { collection_id },
        text_splitter: { chunk_size, chunk_overlap },
      },
    ],
  };
}

const window = (conditions: string[]) => ({
  short_term_memory_strategy: [{ memory_strategy_id: 'max_tokens', conditions }],
});
const summarizeWhen = (interaction_conditions: string[]) => ({
  long_term_memory_strategy: [
    { long_term_memory_id: 'summarizer', interaction_threshold_qty: 3, interaction_conditions },
  ],
});

/** Profiles that look fine, profiles that are not, and profiles that fail only when they run. */
const PROFILES: [string, unknown][] = [
  ['an empty profile', {}],
  ['the combined preset', combined],
  ['the combined preset, bare', (combined as { profile: unknown }).profile],
  ['collection_id "../../x"', withKnowledge('../../x')],
  ['collection_id of 5,000 characters', withKnowledge('x'.repeat(5_000))],
  ['collection_id "kb:support.v2"', withKnowledge('kb:support.v2')],
  ['a condition on a metadata key the messages lack', window(['message.metadata.x == 1'])],
  ['a condition on a nested missing metadata key', window(['message.metadata.x.y == 1'])],
  ['a condition dividing by zero', window(['message.tokenCount / 0 > 1'])],
  ['an interaction condition dividing by zero', summarizeWhen(['interaction.index / 0 == 1'])],
  ['an interaction condition on a missing key', summarizeWhen(['interaction.nope == 1'])],
  ['a condition that does not parse', window(['message.role =='])],
  ['a chunk overlap past the playground bound', withKnowledge('chunks', 16, 15)],
  ['editor text that is not JSON', '{"short_term_memory_strategy": ['],
];

async function post(server: PlaygroundServer, path: string, body: unknown) {
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(90_000),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('/api/validate accepts exactly what /api/replay runs', () => {
  let server: PlaygroundServer;
  const logged: string[] = [];
  beforeAll(async () => {
    server = await startPlaygroundServer({ env: {}, log: (line) => logged.push(line) });
  });
  afterAll(() => server.close());

  it.each(PROFILES)('%s', async (_name, profile) => {
    const validate = await post(server, '/api/validate', { profile });
    expect(validate.status).toBe(200);
    const replay = await post(server, '/api/replay', { profile, store: 'memory' });
    expect(replay.status, JSON.stringify(replay.body).slice(0, 500)).not.toBe(500);
    if (validate.body.ok === true) expect(replay.status).toBe(200);
    else {
      expect(replay.status).toBe(400);
      expect(replay.body.issues).toEqual(validate.body.issues);
    }
  });

  it('rejects the bad collection ids at their path', async () => {
    for (const id of ['../../x', 'x'.repeat(5_000)]) {
      const { body } = await post(server, '/api/validate', { profile: withKnowledge(id) });
      expect(body.ok).toBe(false);
      expect((body.issues as { path: string }[]).map((i) => i.path)).toContain(
        'long_term_memory_strategy[0].knowledge_base.collection_id',
      );
    }
  });

  it('logged no server error', () => {
    expect(logged).toEqual([]);
  });
});
