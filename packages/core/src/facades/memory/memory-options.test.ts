import { describe, expect, it } from 'vitest';
import type { MemConfigError } from '../../errors/errors.ts';
import { MemError } from '../../errors/mem-error.ts';
import { createInMemoryStore } from '../../store/in-memory-store.ts';
import { SUMMARIZER_SPECIFICATION_VERSION } from '../../summarize/summarizer.ts';
import { createTokenCounter } from '../../tokens/token-counter.ts';
import { Memory } from './memory.ts';
import { parseMemoryOptions } from './memory-options.ts';

function configError(run: () => unknown): MemConfigError {
  try {
    run();
  } catch (error) {
    expect(MemError.hasCode(error, 'MEM_CONFIG')).toBe(true);
    return error as MemConfigError;
  }
  throw new Error('expected a MemConfigError');
}

describe('Memory options', () => {
  it('fills in the defaults', () => {
    const o = parseMemoryOptions(undefined);
    expect(o).toMatchObject({
      strategy: 'auto',
      maxTokens: 4000,
      maxTurns: 1000,
      summarizerTimeout: 30_000,
      store: undefined,
      summarizer: undefined,
      tokenCounter: undefined,
    });
    expect(o.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(parseMemoryOptions({}).sessionId).not.toBe(o.sessionId);
  });

  it('accepts every option', () => {
    const store = createInMemoryStore();
    const tokenCounter = createTokenCounter();
    const summarizer = {
      specificationVersion: SUMMARIZER_SPECIFICATION_VERSION,
      summarize: async () => 'short',
    };
    const o = parseMemoryOptions({
      strategy: 'summary',
      maxTokens: 100,
      maxTurns: 7,
      store,
      summarizer,
      summarizerTimeout: null,
      sessionId: 'chat-1',
      tokenCounter,
    });
    expect(o).toEqual({
      strategy: 'summary',
      maxTokens: 100,
      maxTurns: 7,
      store,
      summarizer,
      summarizerTimeout: null,
      sessionId: 'chat-1',
      tokenCounter,
    });
    expect(parseMemoryOptions({ summarizer: async () => 'short' }).summarizer).toBeTypeOf(
      'function',
    );
  });

  it('lists every bad option in one MemConfigError', () => {
    const error = configError(
      () =>
        new Memory({
          strategy: 'fast',
          maxTokens: 0,
          maxTurns: 2.5,
          store: {},
          summarizer: 'gpt',
          summarizerTimeout: -1,
          sessionId: '',
          tokenCounter: 42,
          max_tokens: 10,
        } as never),
    );
    expect(error.issues.map((i) => i.path).sort()).toEqual(
      [
        'strategy',
        'maxTokens',
        'maxTurns',
        'store',
        'summarizer',
        'summarizerTimeout',
        'sessionId',
        'tokenCounter',
        'max_tokens',
      ].sort(),
    );
    expect(error.message).toContain('[mem/core] invalid config in Memory options (9 problems)');
    expect(error.message).toContain('strategy: expected "auto", "sliding", "summary" or "none"');
    expect(error.message).toContain(
      'max_tokens: unknown option; expected one of strategy, maxTokens',
    );
    expect(error.message).toContain('sessionId: [mem/store] invalid sessionId');
  });

  it('rejects a non-object', () => {
    expect(configError(() => new Memory('auto' as never)).issues).toEqual([
      { path: '', message: expect.any(String) },
    ]);
  });
});
