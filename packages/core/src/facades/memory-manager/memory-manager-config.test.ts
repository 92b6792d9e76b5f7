import { describe, expect, it } from 'vitest';
import { MemConfigError } from '../../errors/errors.ts';
import { MemError } from '../../errors/mem-error.ts';
import { MemoryManager } from './memory-manager.ts';
import { DEFAULT_MEMORY_CONFIG } from './memory-manager-config.ts';

function configError(fn: () => unknown): MemConfigError {
  try {
    fn();
  } catch (error) {
    expect(MemError.hasCode(error, 'MEM_CONFIG')).toBe(true);
    return error as MemConfigError;
  }
  throw new Error('expected a MemConfigError');
}

describe('MemoryManager config', () => {
  it('has the documented defaults', () => {
    expect(DEFAULT_MEMORY_CONFIG).toEqual({
      maxEntries: 100,
      maxTokens: 50_000,
      recentWindow: 10,
      minEntriesToCompress: 5,
      autoCompress: true,
      compressionRatio: 0.3,
    });
    expect(new MemoryManager().getConfig()).toEqual(DEFAULT_MEMORY_CONFIG);
    expect(Object.isFrozen(DEFAULT_MEMORY_CONFIG)).toBe(true);
  });

  it('takes config fields in the constructor', () => {
    const memory = new MemoryManager({ maxTokens: 1000, autoCompress: false });
    expect(memory.getConfig()).toEqual({
      ...DEFAULT_MEMORY_CONFIG,
      maxTokens: 1000,
      autoCompress: false,
    });
  });

  it('lists every bad option, not just the first', () => {
    const error = configError(
      () =>
        new MemoryManager({
          maxEntries: 0,
          maxTokens: 1.5,
          recentWindow: -1,
          minEntriesToCompress: 0,
          autoCompress: 'yes' as unknown as boolean,
          compressionRatio: 1,
          store: {} as never,
          summarizerTimeout: -5,
          colour: 'red',
        } as never),
    );
    expect(error.issues.map((i) => i.path).sort()).toEqual(
      [
        'autoCompress',
        'colour',
        'compressionRatio',
        'maxEntries',
        'maxTokens',
        'minEntriesToCompress',
        'recentWindow',
        'store',
        'summarizerTimeout',
      ].sort(),
    );
    expect(error.message).toContain('[mem/core] invalid config in MemoryManager options');
    expect(error).toBeInstanceOf(MemConfigError);
  });

  it('updateConfig merges a partial config and returns the result', () => {
    const memory = new MemoryManager();
    expect(memory.updateConfig({ maxTokens: 100_000, autoCompress: false })).toEqual({
      ...DEFAULT_MEMORY_CONFIG,
      maxTokens: 100_000,
      autoCompress: false,
    });
    expect(memory.getConfig().maxTokens).toBe(100_000);
    expect(memory.updateConfig({}).maxTokens).toBe(100_000);
  });

  it('updateConfig rejects bad fields, listing each, and changes nothing', () => {
    const memory = new MemoryManager();
    const error = configError(() =>
      memory.updateConfig({ compressionRatio: 0, recentWindow: 2.5, store: 1 } as never),
    );
    expect(error.issues.map((i) => i.path).sort()).toEqual([
      'compressionRatio',
      'recentWindow',
      'store',
    ]);
    expect(error.issues.find((i) => i.path === 'store')?.message).toContain('unknown option');
    expect(memory.getConfig()).toEqual(DEFAULT_MEMORY_CONFIG);
  });

  it('getConfig returns a copy', () => {
    const memory = new MemoryManager();
    const config = memory.getConfig();
    config.maxEntries = 1;
    expect(memory.getConfig().maxEntries).toBe(100);
  });
});
