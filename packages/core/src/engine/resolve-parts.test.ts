import { describe, expect, it } from 'vitest';
import type { MemValidationError } from '../errors/errors.ts';
import { MemError } from '../errors/mem-error.ts';
import { Memory } from '../facades/memory/memory.ts';
import { MemoryManager } from '../facades/memory-manager/memory-manager.ts';
import { createInMemoryKnowledgeBase } from '../knowledge/in-memory-knowledge-base.ts';
import { createInMemoryStore } from '../store/in-memory-store.ts';
import { createExtractiveSummarizer } from '../summarize/extractive-summarizer.ts';
import { createTokenCounter } from '../tokens/token-counter.ts';
import { createMemoryEngine } from './memory-engine.ts';

const counter = createTokenCounter();

function refusal(run: () => unknown): MemValidationError {
  try {
    run();
  } catch (error) {
    expect(MemError.hasCode(error, 'MEM_VALIDATION')).toBe(true);
    return error as MemValidationError;
  }
  return expect.unreachable('accepted');
}

/** A part as another version of the package would build it: same methods, other version. */
const withVersion = <T extends object>(part: T, version: unknown): T =>
  Object.assign(Object.create(part) as T, { specificationVersion: version });

describe('the engine checks the parts it is given against the spec versions it speaks', () => {
  it('refuses a store of another version, saying which it got and which it speaks', () => {
    const error = refusal(() =>
      createMemoryEngine({
        profile: {},
        store: withVersion(createInMemoryStore(), 'mem.store.v2'),
      }),
    );
    expect(error.field).toBe('store');
    expect(error.message).toContain('specificationVersion "mem.store.v3", got "mem.store.v2"');
  });

  it('refuses a store without a version or missing methods, naming them', () => {
    const { specificationVersion: _, ...unversioned } = createInMemoryStore();
    expect(
      refusal(() => createMemoryEngine({ profile: {}, store: unversioned as never })).message,
    ).toContain('this one has none');
    const partial = { specificationVersion: 'mem.store.v3', append: async () => ({}) };
    expect(
      refusal(() => createMemoryEngine({ profile: {}, store: partial as never })).message,
    ).toMatch(/read\(\), info\(\), compact\(\).* missing/);
  });

  it('refuses a knowledge base that ranks neither by words nor by meaning', () => {
    const kb = createInMemoryKnowledgeBase();
    const blind = Object.assign(Object.create(kb), {
      capabilities: { lexical: false, semantic: false, durable: false },
    });
    const error = refusal(() => createMemoryEngine({ profile: {}, knowledgeBase: blind }));
    expect(error.field).toBe('knowledgeBase');
    expect(error.message).toContain('declares neither');
    expect(() => createMemoryEngine({ profile: {}, knowledgeBase: kb })).not.toThrow();
  });

  it('takes a summarizer function as is, and a summarizer object only with its version', () => {
    expect(() => createMemoryEngine({ profile: {}, summarizer: () => 'short' })).not.toThrow();
    expect(() =>
      createMemoryEngine({ profile: {}, summarizer: createExtractiveSummarizer(counter) }),
    ).not.toThrow();
    const error = refusal(() =>
      createMemoryEngine({
        profile: {},
        summarizer: { summarize: async () => 'short' } as never,
      }),
    );
    expect(error.field).toBe('summarizer');
    expect(error.message).toContain('"mem.summarizer.v1"');
  });

  it('setSummarizer refuses an object of another version and keeps the one it had', () => {
    const engine = createMemoryEngine({ profile: {} });
    const old = withVersion(createExtractiveSummarizer(counter), 'mem.summarizer.v0');
    expect(refusal(() => engine.setSummarizer(old)).field).toBe('summarizer');
    expect(() => engine.setSummarizer(createExtractiveSummarizer(counter))).not.toThrow();
  });

  it('the facades refuse the same parts for the same reasons', () => {
    const store = withVersion(createInMemoryStore(), 'mem.store.v2');
    expect(() => new Memory({ store })).toThrow(
      /store: expected a Store of specificationVersion "mem\.store\.v3", got "mem\.store\.v2"/,
    );
    expect(() => new MemoryManager({ store })).toThrow(
      /store: expected a Store of specificationVersion "mem\.store\.v3", got "mem\.store\.v2"/,
    );
    expect(() => new Memory({ tokenCounter: {} as never })).toThrow(
      /tokenCounter: expected a TokenCounter/,
    );
  });
});
