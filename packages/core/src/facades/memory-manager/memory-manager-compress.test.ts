import { describe, expect, it, vi } from 'vitest';
import { MemStoreError } from '../../errors/errors.ts';
import { createInMemoryStore } from '../../store/in-memory-store.ts';
import type { Store } from '../../store/store-spec.ts';
import { addTurns, gate } from './__fixtures__/turns.ts';
import { planCompression } from './compression-plan.ts';
import type { CompressionResult } from './memory-entry.ts';
import { MemoryManager } from './memory-manager.ts';
import { DEFAULT_SUMMARIZE_PROMPT } from './summarize-callback.ts';

const ids = (entries: Array<{ id: string }>) => entries.map((e) => e.id);

describe('MemoryManager.compress', () => {
  it('does nothing while fewer than minEntriesToCompress entries are eligible', async () => {
    const memory = new MemoryManager({ autoCompress: false }); // recentWindow 10, min 5
    const compressed = vi.fn();
    memory.on('compressed', compressed);
    await addTurns(memory, 's', 3); // 12 entries: 3 turns must stay to keep 10, nothing eligible
    expect(await memory.compress('s')).toBeNull();
    await addTurns(memory, 's', 1, 3); // 16 entries: 1 turn (4 entries) eligible < 5
    expect(await memory.compress('s')).toBeNull();
    await addTurns(memory, 's', 1, 4); // 20 entries: 2 turns (8 entries) eligible
    expect(await memory.compress('s')).not.toBeNull();
    expect(compressed).toHaveBeenCalledTimes(1);
  });

  it('keeps the newest recentWindow entries active, and never splits a turn', async () => {
    const memory = new MemoryManager({
      autoCompress: false,
      recentWindow: 5,
      minEntriesToCompress: 1,
    });
    await addTurns(memory, 's', 5);
    const all = await memory.getActiveEntries('s');
    await memory.compress('s');
    const active = await memory.getActiveEntries('s');
    // 5 entries reach into the 4th turn, so the whole 4th and 5th turns (8 entries) stay.
    expect(ids(active.slice(1))).toEqual(ids(all.slice(12)));
    expect(active[0]?.type).toBe('summary');
  });

  it('compresses old context but never pinned context', async () => {
    const memory = new MemoryManager({
      autoCompress: false,
      recentWindow: 4,
      minEntriesToCompress: 1,
    });
    const rules = await memory.addContext('s', 'Never delete files.', 'rules.md', { pinned: true });
    const file = await memory.addContext('s', 'export const x = 1;', 'src/main.ts');
    await addTurns(memory, 's', 3);
    await memory.compress('s');
    const active = await memory.getActiveEntries('s');
    expect(active.map((e) => e.id)).toContain(rules.id);
    expect(active.map((e) => e.id)).not.toContain(file.id);
    const context = await memory.getContextForLLM('s');
    expect(context).toContain('Context (rules.md): Never delete files.');
    expect(context).not.toContain('export const x = 1;');
  });

  it('links compressed entries to the summary, which reports what it replaced', async () => {
    let clock = Date.UTC(2024, 0, 1);
    const memory = new MemoryManager({
      autoCompress: false,
      recentWindow: 4,
      minEntriesToCompress: 1,
      now: () => (clock += 60_000),
    });
    const events: Array<[string, CompressionResult]> = [];
    memory.on('compressed', (id, result) => events.push([id, result]));
    await addTurns(memory, 's', 3);
    const originals = (await memory.getActiveEntries('s')).slice(0, 8);
    const result = (await memory.compress('s'))!;
    expect(events).toEqual([['s', result]]);
    const { summary } = result;
    expect(summary.originalEntryIds).toEqual(ids(originals));
    expect(summary.originalTokenCount).toBe(originals.reduce((s, e) => s + e.tokenCount, 0));
    expect(summary.compressionRatio).toBeCloseTo(summary.originalTokenCount / summary.tokenCount);
    expect(summary.timeRange).toEqual({
      start: originals[0]!.timestamp,
      end: originals[7]!.timestamp,
    });
    expect(result).toMatchObject({
      tokensSaved: summary.originalTokenCount - summary.tokenCount,
      entriesCompressed: 8,
      source: 'fallback',
    });
    const state = await memory.exportSession('s');
    const replaced = state.entries.filter((e) => e.compressed);
    expect(ids(replaced)).toEqual(ids(originals));
    expect(replaced.every((e) => e.summaryId === summary.id)).toBe(true);
    expect(state.entries.find((e) => e.id === summary.id)).toMatchObject({
      type: 'summary',
      compressed: false,
    });
    expect(state.summaries).toEqual([summary]);
  });

  it('folds an earlier summary into the next one', async () => {
    const memory = new MemoryManager({
      autoCompress: false,
      recentWindow: 4,
      minEntriesToCompress: 1,
    });
    await addTurns(memory, 's', 3);
    const first = (await memory.compress('s'))!.summary;
    await addTurns(memory, 's', 2, 3);
    const second = (await memory.compress('s'))!.summary;
    expect(second.originalEntryIds[0]).toBe(first.id);
    const state = await memory.exportSession('s');
    expect(state.entries.find((e) => e.id === first.id)).toMatchObject({
      compressed: true,
      summaryId: second.id,
    });
    expect(state.summaries.map((s) => s.id)).toEqual([first.id, second.id]);
    expect(state.entries).toHaveLength(22); // 20 turns' entries + 2 summaries, nothing lost
  });

  it('plans the target as compressionRatio x the replaced tokens', async () => {
    const memory = new MemoryManager({ autoCompress: false });
    await addTurns(memory, 's', 6);
    const active = await memory.store.read('s');
    const config = { recentWindow: 4, minEntriesToCompress: 1, compressionRatio: 0.3 };
    const plan = planCompression(active.messages, config)!;
    const replaced = active.messages.slice(0, 20).reduce((s, m) => s + m.tokenCount, 0);
    expect(plan).toEqual({
      keepInteractions: 1,
      eligibleEntries: 20,
      originalTokens: replaced,
      targetTokens: Math.round(replaced * 0.3),
    });
    expect(
      planCompression(active.messages, { ...config, compressionRatio: 0.5 })?.targetTokens,
    ).toBe(Math.round(replaced * 0.5));
    expect(planCompression(active.messages, { ...config, recentWindow: 0 })?.keepInteractions).toBe(
      0,
    );
    expect(planCompression(active.messages, { ...config, recentWindow: 24 })).toBeUndefined();
    expect(
      planCompression(active.messages, { ...config, minEntriesToCompress: 21 }),
    ).toBeUndefined();
  });
});

describe('MemoryManager auto-compression', () => {
  it('compresses in the background once active entries exceed maxEntries', async () => {
    const memory = new MemoryManager({ maxEntries: 10, recentWindow: 4, minEntriesToCompress: 2 });
    const results: CompressionResult[] = [];
    memory.on('compressed', (_id, r) => results.push(r));
    await addTurns(memory, 's', 2); // 8 entries: under the limit
    await memory.idle();
    expect(results).toHaveLength(0);
    await addTurns(memory, 's', 1, 2); // 11th entry crosses it
    await memory.idle('s');
    expect(results).toHaveLength(1);
    const stats = await memory.getStats('s');
    expect(stats.activeEntries).toBeLessThanOrEqual(10);
    expect(stats.totalEntries).toBe(13);
  });

  it('compresses once active tokens exceed maxTokens', async () => {
    const memory = new MemoryManager({ maxTokens: 150, recentWindow: 2, minEntriesToCompress: 1 });
    await addTurns(memory, 's', 4);
    await memory.idle();
    const stats = await memory.getStats('s');
    expect(stats.summaries).toBeGreaterThan(0);
    expect(stats.totalEntries - stats.summaries).toBe(16);
  });

  it('never compresses by itself when autoCompress is off', async () => {
    const memory = new MemoryManager({ maxEntries: 5, minEntriesToCompress: 1, recentWindow: 1 });
    memory.updateConfig({ autoCompress: false });
    await addTurns(memory, 's', 4);
    await memory.idle();
    expect((await memory.getStats('s')).summaries).toBe(0);
    expect(await memory.compress('s')).not.toBeNull();
  });

  it('adds do not wait for a slow summarize callback, and nothing added meanwhile is lost', async () => {
    const slow = gate();
    const prompts: string[] = [];
    const memory = new MemoryManager({
      maxEntries: 10,
      recentWindow: 4,
      minEntriesToCompress: 2,
      summarizeCallback: async (prompt) => {
        prompts.push(prompt);
        await slow.opened;
        return 'The user configured API routes 0 and 1 with shell help.';
      },
    });
    await addTurns(memory, 's', 3);
    await vi.waitFor(() => expect(prompts).toHaveLength(1)); // stuck in the callback
    await addTurns(memory, 's', 3, 3); // resolves although the callback hangs
    expect(await memory.getStats('s')).toMatchObject({ totalEntries: 24, summaries: 0 });
    slow.open();
    await memory.idle();
    const state = await memory.exportSession('s');
    expect(state.entries.filter((e) => e.type !== 'summary')).toHaveLength(24);
    expect(state.summaries[0]?.content).toBe(
      'The user configured API routes 0 and 1 with shell help.',
    );
  });
});

describe('MemoryManager summarization', () => {
  it('gives the callback the default prompt with the transcript in place of {content}', async () => {
    const prompts: string[] = [];
    const memory = new MemoryManager({
      autoCompress: false,
      recentWindow: 4,
      minEntriesToCompress: 1,
    });
    memory.setSummarizeCallback(async (prompt) => {
      prompts.push(prompt);
      return 'Routes 0-1 were configured; shell was used to read route files.';
    });
    const fallback = vi.fn();
    memory.on('summarizer:fallback', fallback);
    await addTurns(memory, 's', 3);
    const result = (await memory.compress('s'))!;
    expect(prompts).toHaveLength(1);
    const [head] = DEFAULT_SUMMARIZE_PROMPT.split('{content}');
    expect(prompts[0]!.startsWith(head!)).toBe(true);
    expect(head).toBe(
      'Summarize the following conversation, preserving:\n1. Key topics discussed\n2. Important decisions made\n3. Tools used and their outcomes\n4. Any errors or issues encountered\n5. Context that would be needed to continue\n\nKeep the summary concise but informative.\n\n',
    );
    expect(prompts[0]).toContain('User: Question 0: how do I configure route 0 of the API?');
    expect(prompts[0]).toContain('shell');
    expect(prompts[0]).not.toContain('Question 2'); // kept in the recent window
    expect(result.source).toBe('summarizer');
    expect(result.summary.content).toBe(
      'Routes 0-1 were configured; shell was used to read route files.',
    );
    expect(fallback).not.toHaveBeenCalled();
  });

  it('a failing callback falls back to the extractive summary, reports it, and loses nothing', async () => {
    const memory = new MemoryManager({
      autoCompress: false,
      recentWindow: 4,
      minEntriesToCompress: 1,
      summarizeCallback: async () => {
        throw new Error('LLM down');
      },
    });
    const fallbacks: Array<[string, string, unknown]> = [];
    memory.on('summarizer:fallback', (id, reason, error) => fallbacks.push([id, reason, error]));
    await addTurns(memory, 's', 3);
    const before = await memory.exportSession('s');
    const result = (await memory.compress('s'))!;
    expect(fallbacks).toEqual([
      ['s', 'error', expect.objectContaining({ code: 'MEM_SUMMARIZER' })],
    ]);
    expect(result.source).toBe('fallback');
    expect(result.summary.content).toMatch(
      /^\[Previous conversation summary\]\n2 user messages\nFirst: "Question 0/,
    );
    expect(result.summary.content).toContain('Tools used: shell');
    const after = await memory.exportSession('s');
    expect(
      after.entries
        .filter((e) => e.type !== 'summary')
        .map(({ compressed: _c, summaryId: _s, ...e }) => e),
    ).toEqual(before.entries.map(({ compressed: _c, summaryId: _s, ...e }) => e));
  });

  it('a callback that outlives summarizerTimeout falls back with reason timeout', async () => {
    const memory = new MemoryManager({
      autoCompress: false,
      recentWindow: 4,
      minEntriesToCompress: 1,
      summarizerTimeout: 50,
      summarizeCallback: () => new Promise<string>(() => {}),
    });
    const reasons: string[] = [];
    memory.on('summarizer:fallback', (_id, reason) => reasons.push(reason));
    await addTurns(memory, 's', 3);
    expect((await memory.compress('s'))?.source).toBe('fallback');
    expect(reasons).toEqual(['timeout']);
  });

  it('setSummarizeCallback(null) returns to the extractive summary', async () => {
    const memory = new MemoryManager({
      autoCompress: false,
      recentWindow: 4,
      minEntriesToCompress: 1,
    });
    const callback = vi.fn(async () => 'A summary of the routes.');
    memory.setSummarizeCallback(callback);
    memory.setSummarizeCallback(null);
    const reasons: string[] = [];
    memory.on('summarizer:fallback', (_id, reason) => reasons.push(reason));
    await addTurns(memory, 's', 3);
    expect((await memory.compress('s'))?.source).toBe('fallback');
    expect(callback).not.toHaveBeenCalled();
    expect(reasons).toEqual(['none-configured']);
    expect(() => memory.setSummarizeCallback('nope' as never)).toThrow(/setSummarizeCallback/);
  });
});

describe('MemoryManager compression failures', () => {
  /** The in-memory store, with compaction failing (a full disk, say). */
  function failingStore(): Store {
    const store = createInMemoryStore();
    return {
      ...store,
      compact: async () => {
        throw new MemStoreError('[mem/test] disk full');
      },
    };
  }

  it('a manual compression rejects, emits compress:failed and leaves the session unchanged', async () => {
    const memory = new MemoryManager({
      store: failingStore(),
      autoCompress: false,
      recentWindow: 4,
      minEntriesToCompress: 1,
    });
    const failures: Array<[string, unknown]> = [];
    memory.on('compress:failed', (id, error) => failures.push([id, error]));
    await addTurns(memory, 's', 3);
    const before = await memory.exportSession('s');
    await expect(memory.compress('s')).rejects.toThrow('disk full');
    expect(failures).toEqual([['s', expect.objectContaining({ code: 'MEM_STORE' })]]);
    expect(await memory.exportSession('s')).toEqual(before);
  });

  it('a background compression failure is reported, and adds go on', async () => {
    const memory = new MemoryManager({
      store: failingStore(),
      maxEntries: 6,
      recentWindow: 2,
      minEntriesToCompress: 1,
    });
    const failures: string[] = [];
    memory.on('compress:failed', (id) => failures.push(id));
    await addTurns(memory, 's', 2);
    await memory.idle();
    expect(failures.length).toBeGreaterThan(0);
    await addTurns(memory, 's', 1, 2);
    expect((await memory.getStats('s')).totalEntries).toBe(12);
  });
});
