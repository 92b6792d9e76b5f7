import { createInMemoryStore, createMemoryEngine, MemValidationError } from '@mem/core';
import { describe, expect, it } from 'vitest';
import { memoryMiddleware } from './index.ts';

const engine = createMemoryEngine({ store: createInMemoryStore(), profile: {} });

function fieldOf(make: () => unknown): string | undefined {
  try {
    make();
  } catch (error) {
    if (error instanceof MemValidationError) return `${error.field}: ${error.message}`;
    throw error;
  }
  return undefined;
}

describe('memoryMiddleware options', () => {
  it('refuses a missing or wrong engine, naming the field and what to pass', () => {
    expect(fieldOf(() => memoryMiddleware({ sessionId: 'a' } as never))).toMatch(
      /^engine: \[mem\/ai-sdk\] memoryMiddleware: engine must be a mem engine: pass createMemoryEngine/,
    );
    expect(fieldOf(() => memoryMiddleware({ engine: {}, sessionId: 'a' } as never))).toMatch(
      /^engine: .*got object\.$/,
    );
  });

  it('refuses an empty, blank or non-string sessionId', () => {
    for (const sessionId of ['', '  ', 42, undefined, null]) {
      expect(fieldOf(() => memoryMiddleware({ engine, sessionId } as never))).toMatch(
        /^sessionId: \[mem\/ai-sdk\] memoryMiddleware: sessionId must be a non-empty string/,
      );
    }
  });

  it('refuses an empty, non-string or ill-formed userId, naming the field and what to pass', () => {
    for (const userId of ['', 42, null, '\uD800ana', 'a\nb', 'x'.repeat(513)]) {
      expect(fieldOf(() => memoryMiddleware({ engine, sessionId: 'a', userId } as never))).toMatch(
        /^userId: \[mem\/ai-sdk\] memoryMiddleware: userId must be the id of the user the conversation belongs to \(1-512 characters of well-formed text, no control characters\)/,
      );
    }
  });

  it('refuses options that are not an object', () => {
    expect(fieldOf(() => memoryMiddleware(undefined as never))).toMatch(/^options: /);
  });

  it("refuses a changedHistory other than 'replace' or 'error', naming both", () => {
    for (const changedHistory of ['append', '', 1, null]) {
      expect(
        fieldOf(() => memoryMiddleware({ engine, sessionId: 'a', changedHistory } as never)),
      ).toMatch(
        /^changedHistory: \[mem\/ai-sdk\] memoryMiddleware: changedHistory must be 'replace' .* or 'error'/,
      );
    }
  });

  it('refuses a streamIdleTimeoutMs that is not a whole number of milliseconds above 0', () => {
    for (const streamIdleTimeoutMs of [0, -1, 1.5, Number.NaN, Infinity, '30000', null]) {
      expect(
        fieldOf(() => memoryMiddleware({ engine, sessionId: 'a', streamIdleTimeoutMs } as never)),
      ).toMatch(/^streamIdleTimeoutMs: .*whole number of milliseconds above 0/);
    }
  });

  it('accepts a fixed id or a function', () => {
    expect(memoryMiddleware({ engine, sessionId: 'chat-1' }).specificationVersion).toBe('v3');
    expect(memoryMiddleware({ engine, sessionId: () => 'chat-1' }).specificationVersion).toBe('v3');
    expect(memoryMiddleware({ engine, sessionId: 'a', userId: 'ana' }).specificationVersion).toBe(
      'v3',
    );
    expect(
      memoryMiddleware({ engine, sessionId: 'a', userId: () => undefined }).specificationVersion,
    ).toBe('v3');
    const all = {
      engine,
      sessionId: 'a',
      changedHistory: 'error',
      streamIdleTimeoutMs: 5,
    } as const;
    expect(memoryMiddleware(all).specificationVersion).toBe('v3');
  });
});
