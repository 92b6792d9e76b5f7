import { describe, expect, it } from 'vitest';
import { parseProfile } from '../../config/parse-profile.ts';
import {
  AUTO_KEEP_TURNS,
  erasuresAreBackstop,
  type MemoryStrategy,
  SLIDING_TURNS,
  SUMMARY_KEEP_TURNS,
  SUMMARY_THRESHOLD_TURNS,
  strategyProfile,
  summaryTokenBudget,
} from './strategy-profile.ts';

const base = { maxTokens: 4000, maxTurns: 1000, chainOfDensity: false };
const parsed = (strategy: MemoryStrategy, options = base) =>
  parseProfile(strategyProfile(strategy, options)).config;
const backstop = (maxTurns: number) =>
  expect.objectContaining({
    long_term_memory_id: 'neuralyzer',
    interaction_threshold_qty: maxTurns,
    interaction_threshold_tokens: 0,
    interaction_keep: maxTurns,
  });

describe('strategyProfile', () => {
  it('every strategy parses as an engine profile and ends with the maxTurns backstop', () => {
    for (const strategy of ['auto', 'sliding', 'summary', 'none'] as const) {
      const config = parsed(strategy, { ...base, maxTurns: 77 });
      expect(config.long_term_memory_strategy.at(-1)).toEqual(backstop(77));
      expect(config.persistence_strategy).toBe('INCREMENTAL');
    }
  });

  it('sliding: a neuralyzer keeping the newest 10 turns, no token window', () => {
    const config = parsed('sliding');
    expect(config.short_term_memory_strategy).toEqual([]);
    expect(config.long_term_memory_strategy).toEqual([
      expect.objectContaining({
        long_term_memory_id: 'neuralyzer',
        interaction_threshold_qty: SLIDING_TURNS,
        interaction_threshold_tokens: 0,
        interaction_keep: SLIDING_TURNS,
      }),
      backstop(1000),
    ]);
    expect(SLIDING_TURNS).toBe(10);
  });

  it('summary: summarizes all but the newest 5 turns once more than 10 are retained', () => {
    const config = parsed('summary');
    expect(config.short_term_memory_strategy).toEqual([]);
    expect(config.long_term_memory_strategy).toEqual([
      expect.objectContaining({
        long_term_memory_id: 'summarizer',
        interaction_threshold_qty: SUMMARY_THRESHOLD_TURNS,
        interaction_threshold_tokens: 0,
        interaction_keep: SUMMARY_KEEP_TURNS,
        cod_max_loops: 1,
        knowledge_base: null,
      }),
      backstop(1000),
    ]);
    expect([SUMMARY_THRESHOLD_TURNS, SUMMARY_KEEP_TURNS]).toEqual([10, 5]);
  });

  it('auto: a maxTokens window plus a summary of all but the newest 4 turns once over maxTokens', () => {
    const config = parsed('auto', { ...base, maxTokens: 1234 });
    expect(config.short_term_memory_strategy).toEqual([
      { memory_strategy_id: 'max_tokens', memory_max_tokens: 1234, conditions: [] },
    ]);
    expect(config.long_term_memory_strategy).toEqual([
      expect.objectContaining({
        long_term_memory_id: 'summarizer',
        interaction_threshold_qty: 0,
        interaction_threshold_tokens: 1234,
        interaction_keep: AUTO_KEEP_TURNS,
        cod_max_loops: 1,
      }),
      backstop(1000),
    ]);
    expect(AUTO_KEEP_TURNS).toBe(4);
  });

  it('none: only the backstop', () => {
    const config = parsed('none', { ...base, maxTurns: 3 });
    expect(config.short_term_memory_strategy).toEqual([]);
    expect(config.long_term_memory_strategy).toEqual([backstop(3)]);
  });

  it('lets a Chain of Density summarizer run its passes; anything else is called once', () => {
    for (const strategy of ['auto', 'summary'] as const) {
      const [cod] = parsed(strategy, { ...base, chainOfDensity: true }).long_term_memory_strategy;
      expect(cod).toMatchObject({ long_term_memory_id: 'summarizer', cod_max_loops: 5 });
    }
  });
});

describe('erasuresAreBackstop', () => {
  it('is true where the backstop is the only neuralyzer that can erase', () => {
    for (const strategy of ['auto', 'summary', 'none'] as const) {
      expect(erasuresAreBackstop(strategy, 1000)).toBe(true);
    }
    expect(erasuresAreBackstop('sliding', 10)).toBe(false);
    expect(erasuresAreBackstop('sliding', 1000)).toBe(false);
    expect(erasuresAreBackstop('sliding', 9)).toBe(true);
  });
});

describe('summaryTokenBudget', () => {
  it('asks auto for a quarter of maxTokens, between 64 and 2,000 tokens', () => {
    expect(summaryTokenBudget('auto', 4000)).toBe(1000);
    expect(summaryTokenBudget('auto', 100)).toBe(64);
    expect(summaryTokenBudget('auto', 100_000)).toBe(2000);
    expect(summaryTokenBudget('summary', 4000)).toBeUndefined();
  });
});
