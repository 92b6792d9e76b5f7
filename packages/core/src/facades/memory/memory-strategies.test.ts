import { afterEach, describe, expect, it, vi } from 'vitest';
import { isSummaryMessage, messageText } from '../../model/message.ts';
import { createInMemoryStore } from '../../store/in-memory-store.ts';
import { createTokenCounter } from '../../tokens/token-counter.ts';
import { range, summaries, turn, turnNumbers } from './__fixtures__/turns.ts';
import { Memory } from './memory.ts';
import type { MemoryEvents } from './memory-events.ts';

const counter = createTokenCounter();
const promptTokens = (messages: Parameters<typeof counter.countMessage>[0][]) =>
  messages.reduce((sum, m) => sum + counter.countMessage(m), counter.replyPrimingTokens);

async function addTurns(memory: Memory, from: number, to: number): Promise<void> {
  for (const i of range(from, to)) await memory.add(...turn(i));
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('Memory strategy "sliding"', () => {
  it('keeps only the newest 10 turns, right after each add, without a warning', async () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    const store = createInMemoryStore();
    const memory = new Memory({ strategy: 'sliding', store, sessionId: 's' });
    const warnings: unknown[] = [];
    memory.on('warning', (w) => warnings.push(w));
    await addTurns(memory, 1, 10);
    expect(turnNumbers(await memory.messages())).toEqual(range(1, 10));
    for (const i of range(11, 25)) {
      await memory.add(...turn(i));
      expect(turnNumbers(await memory.messages())).toEqual(range(Math.max(1, i - 9), i));
    }
    const stored = await store.read('s');
    expect(stored.messages).toHaveLength(20); // really erased, not hidden
    expect(summaries(stored.messages)).toEqual([]);
    expect(warnings).toEqual([]);
    expect(warn).not.toHaveBeenCalled();
  });
});

describe('Memory strategy "summary"', () => {
  it('compresses once more than 10 turns are retained; messages() starts with the summary', async () => {
    const compressed: MemoryEvents['compressed'][] = [];
    const memory = new Memory({
      strategy: 'summary',
      summarizer: async (input) =>
        `Travellers 1-6 visited cities (${input.length} chars summarized).`,
    });
    memory.on('compressed', (e) => compressed.push(e));
    await addTurns(memory, 1, 10);
    await memory.idle();
    expect(compressed).toEqual([]);
    expect(turnNumbers(await memory.messages())).toEqual(range(1, 10));

    await memory.add(...turn(11));
    await memory.idle();
    expect(compressed).toHaveLength(1);
    expect(compressed[0]!.source).toBe('summarizer');
    const messages = await memory.messages();
    expect(isSummaryMessage(messages[0]!)).toBe(true);
    expect(messageText(messages[0]!)).toContain('Travellers 1-6 visited cities');
    expect(turnNumbers(messages)).toEqual(range(7, 11)); // the newest 5 turns, verbatim

    await addTurns(memory, 12, 17); // 11 turns again: the earlier summary is folded in
    await memory.idle();
    expect(compressed).toHaveLength(2);
    expect(compressed[1]!.record.previousSummaryId).toBe(compressed[0]!.record.id);
    const again = await memory.messages();
    expect(summaries(again)).toHaveLength(1);
    expect(turnNumbers(again)).toEqual(range(13, 17));
  });

  it('without a summarizer, falls back to the extractive summary (names and numbers kept)', async () => {
    const fallbacks: MemoryEvents['fallback'][] = [];
    const memory = new Memory({ strategy: 'summary' });
    memory.on('fallback', (e) => fallbacks.push(e));
    await addTurns(memory, 1, 11);
    await memory.idle();
    expect(fallbacks).toEqual([{ reason: 'none-configured' }]);
    const [summary] = await memory.messages();
    expect(isSummaryMessage(summary!)).toBe(true);
    expect(messageText(summary!)).toMatch(/City\d/);
  });
});

describe('Memory strategy "auto"', () => {
  it('keeps messages() within maxTokens and summarizes once the turns exceed it', async () => {
    const maxTokens = 300;
    const compressed: MemoryEvents['compressed'][] = [];
    const memory = new Memory({ strategy: 'auto', maxTokens });
    memory.on('compressed', (e) => compressed.push(e));
    let turnTokens = 0;
    let i = 0;
    // Under budget: nothing is summarized and everything is shown.
    for (;;) {
      const [user, assistant] = turn(i + 1);
      const next =
        counter.countMessage({ id: 'u', role: 'user', content: user, createdAt: 0 }) +
        counter.countMessage({ id: 'a', role: 'assistant', content: assistant, createdAt: 0 });
      if (turnTokens + next > maxTokens) break;
      await memory.add(user, assistant);
      turnTokens += next;
      i++;
    }
    await memory.idle();
    expect(i).toBeGreaterThan(4);
    expect(compressed).toEqual([]);
    expect(turnNumbers(await memory.messages())).toEqual(range(1, i));

    // The first turn over budget triggers one summary of all but the newest 4 turns.
    await memory.add(...turn(i + 1));
    await memory.idle();
    expect(compressed).toHaveLength(1);
    expect(compressed[0]!.record.originalMessageIds).toHaveLength(2 * (i + 1 - 4));
    const first = await memory.messages();
    expect(isSummaryMessage(first[0]!)).toBe(true);
    expect(turnNumbers(first)).toEqual(range(i - 2, i + 1));

    // Later on, the window holds at every add, while summaries replace the older turns.
    for (const n of range(i + 2, i + 30)) {
      await memory.add(...turn(n));
      const messages = await memory.messages();
      expect(promptTokens(messages)).toBeLessThanOrEqual(maxTokens);
      expect(turnNumbers(messages).at(-1)).toBe(n);
    }
    await memory.idle();
    expect(compressed.length).toBeGreaterThan(0);
    const messages = await memory.messages();
    expect(isSummaryMessage(messages[0]!)).toBe(true);
    expect(promptTokens(messages)).toBeLessThanOrEqual(maxTokens);
    expect(turnNumbers(messages).at(-1)).toBe(i + 30);
  });
});

describe('Memory strategy "none"', () => {
  it('keeps everything until maxTurns, then the backstop fires with exactly one warning', async () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    const store = createInMemoryStore();
    const memory = new Memory({ strategy: 'none', maxTurns: 5, store, sessionId: 'n' });
    const warnings: MemoryEvents['warning'][] = [];
    memory.on('warning', (w) => warnings.push(w));
    await addTurns(memory, 1, 5);
    expect(turnNumbers(await memory.messages())).toEqual(range(1, 5));
    expect(warnings).toEqual([]);

    await memory.add(...turn(6));
    expect(turnNumbers(await memory.messages())).toEqual(range(2, 6));
    expect((await store.read('n')).messages).toHaveLength(10);
    expect(warnings).toEqual([
      { code: 'MEM_MAX_TURNS', message: expect.any(String), maxTurns: 5, erasedCount: 2 },
    ]);
    expect(warnings[0]!.message).toMatch(/switch from strategy 'none' to 'auto'/);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledWith(warnings[0]!.message, {
      type: 'MemWarning',
      code: 'MEM_MAX_TURNS',
    });

    await addTurns(memory, 7, 12); // fires again on every add: still one warning
    expect(turnNumbers(await memory.messages())).toEqual(range(8, 12));
    expect(warnings).toHaveLength(1);
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it('warns once per Memory instance', async () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    for (const sessionId of ['a', 'b']) {
      const memory = new Memory({ strategy: 'none', maxTurns: 1, sessionId });
      await addTurns(memory, 1, 4);
    }
    expect(warn).toHaveBeenCalledTimes(2);
  });

  it('backs up sliding too when maxTurns is below its window', async () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    const memory = new Memory({ strategy: 'sliding', maxTurns: 3 });
    await addTurns(memory, 1, 6);
    expect(turnNumbers(await memory.messages())).toEqual(range(4, 6));
    expect(warn).toHaveBeenCalledTimes(1);
  });
});
