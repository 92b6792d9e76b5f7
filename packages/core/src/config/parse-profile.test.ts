import { describe, expect, it } from 'vitest';
import type { MemConfigError } from '../errors/errors.ts';
import { MemError } from '../errors/mem-error.ts';
import { createInMemoryKnowledgeBase } from '../knowledge/in-memory-knowledge-base.ts';
import { seedExamples } from './__fixtures__/seed-examples.ts';
import { parseLongTermStrategy, parseProfile, parseShortTermStrategy } from './parse-profile.ts';

function configError(fn: () => unknown): MemConfigError {
  try {
    fn();
  } catch (error) {
    expect(MemError.hasCode(error, 'MEM_CONFIG')).toBe(true);
    return error as MemConfigError;
  }
  throw new Error('expected a MemConfigError');
}

describe('seed examples', () => {
  it.each(seedExamples.map((e) => [e.seed, e] as const))('%s parses verbatim', (_name, example) => {
    const input: unknown = JSON.parse(example.json);
    if (example.kind === 'short-term') {
      const parsed = parseShortTermStrategy(input);
      expect(parsed.config).toMatchObject(input as object);
      expect(parsed.conditions.map((c) => c.expression)).toEqual(parsed.config.conditions);
    } else if (example.kind === 'long-term') {
      expect(parseLongTermStrategy(input).config).toMatchObject(input as object);
    } else {
      const profile = parseProfile(input);
      const bare = (input as { profile?: object }).profile ?? input;
      expect(profile.config).toMatchObject(bare as object);
    }
  });

  it('fills the documented defaults', () => {
    const profile = parseProfile({
      short_term_memory_strategy: [{ memory_strategy_id: 'max_tokens' }],
      long_term_memory_strategy: [
        { long_term_memory_id: 'summarizer' },
        { long_term_memory_id: 'neuralyzer' },
      ],
    });
    expect(profile.config.persistence_strategy).toBe('INCREMENTAL');
    expect(profile.config.short_term_memory_strategy[0]).toEqual({
      memory_strategy_id: 'max_tokens',
      memory_max_tokens: 10000,
      conditions: [],
    });
    const shared = {
      input_tokens_threshold: 0,
      interaction_keep: 0,
      interaction_conditions: [],
      on_tools_success_threshold: [],
      on_tools_error_threshold: [],
    };
    expect(profile.config.long_term_memory_strategy[0]).toEqual({
      long_term_memory_id: 'summarizer',
      ...shared,
      interaction_threshold_qty: 20,
      interaction_threshold_tokens: 20000,
      cod_max_loops: 5,
      instructions: null,
      knowledge_base: null,
      text_splitter: { chunk_size: 512, chunk_overlap: 64 },
    });
    expect(profile.config.long_term_memory_strategy[1]).toEqual({
      long_term_memory_id: 'neuralyzer',
      ...shared,
      interaction_threshold_qty: -1,
      interaction_threshold_tokens: -1,
    });
    expect(
      parseLongTermStrategy({
        long_term_memory_id: 'summarizer',
        knowledge_base: { collection_id: 'c' },
      }).config,
    ).toMatchObject({
      knowledge_base: {
        collection_id: 'c',
        search_mode: 'always',
        top_k: 100,
        knowledge_share: 0.75,
      },
    });
  });

  it('accepts every persistence strategy', () => {
    for (const p of ['INCREMENTAL', 'FLUSH', 'EPHEMERAL'] as const) {
      expect(parseProfile({ persistence_strategy: p }).config.persistence_strategy).toBe(p);
    }
  });
});

describe('bad config', () => {
  it('throws one MemConfigError listing every bad path, conditions included', () => {
    const error = configError(() =>
      parseProfile({
        profile: {
          short_term_memory_strategy: [
            {
              memory_strategy_id: 'max_tokens',
              memory_max_tokens: '8000',
              conditions: ['message.role ==', 'true'],
            },
            { memory_strategy_id: 'max_token' },
          ],
          long_term_memory_strategy: [
            {
              long_term_memory_id: 'summarizer',
              cod_max_loops: 0,
              interaction_keep: -1,
              knowledge_base: { top_k: 3 },
            },
            { long_term_memory_id: 'forgetter' },
            {
              long_term_memory_id: 'neuralyzer',
              interaction_conditions: ['interaction.nope('],
              interaction_kept: 2,
            },
          ],
          persistence_strategy: 'SOMETIMES',
        },
      }),
    );
    const paths = error.issues.map((i) => i.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'profile.short_term_memory_strategy[0].memory_max_tokens',
        'profile.short_term_memory_strategy[0].conditions[0]',
        'profile.short_term_memory_strategy[1].memory_strategy_id',
        'profile.long_term_memory_strategy[0].cod_max_loops',
        'profile.long_term_memory_strategy[0].interaction_keep',
        'profile.long_term_memory_strategy[0].knowledge_base.collection_id',
        'profile.long_term_memory_strategy[1].long_term_memory_id',
        'profile.long_term_memory_strategy[2].interaction_conditions[0]',
        'profile.long_term_memory_strategy[2]',
        'profile.persistence_strategy',
      ]),
    );
    expect(error.message).toContain('[mem/core] invalid config');
    expect(error.message).toContain('profile.long_term_memory_strategy[0].cod_max_loops');
    expect(
      error.issues.find((i) => i.path === 'profile.long_term_memory_strategy[2]')?.message,
    ).toMatch(/interaction_kept/);
  });

  it('reports entry-relative paths for a single strategy entry', () => {
    const error = configError(() =>
      parseShortTermStrategy(
        { memory_strategy_id: 'max_tokens', memory_max_tokens: -2 },
        { source: 'agent.json' },
      ),
    );
    expect(error.issues.map((i) => i.path)).toEqual(['memory_max_tokens']);
    expect(error.message).toContain('agent.json');
  });

  it('rejects every collection_id a knowledge base would reject, at its path', async () => {
    const kb = createInMemoryKnowledgeBase();
    const ids = ['session-memory', 'kb:support.v2', 'x'.repeat(128)];
    const bad = ['../../x', 'x'.repeat(5_000), 'x'.repeat(129), '', '.', '..', 'a b', 'é', 'a/b'];
    const profile = (collection_id: string) => ({
      long_term_memory_strategy: [
        { long_term_memory_id: 'summarizer', knowledge_base: { collection_id } },
      ],
    });
    for (const id of ids) {
      expect(() => parseProfile(profile(id)), id).not.toThrow();
      await expect(kb.count(id), id).resolves.toBe(0);
    }
    for (const id of bad) {
      const error = configError(() => parseProfile(profile(id)));
      expect(error.issues.map((i) => i.path)).toEqual([
        'long_term_memory_strategy[0].knowledge_base.collection_id',
      ]);
      expect(error.issues[0]!.message).toMatch(/letters, digits/);
      expect(error.message.length).toBeLessThan(1_000);
      await expect(kb.count(id), id).rejects.toThrow(/collectionId/);
    }
  });

  it('rejects non-objects at the root', () => {
    expect(configError(() => parseProfile(42)).issues[0]!.path).toBe('');
    expect(configError(() => parseProfile(null)).issues).toHaveLength(1);
  });
});
