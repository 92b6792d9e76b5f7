import { describe, expect, it, vi } from 'vitest';
import { isSummaryMessage, type Message, messageText } from '../../model/message.ts';
import { createInMemoryStore } from '../../store/in-memory-store.ts';
import type { Store } from '../../store/store-spec.ts';
import type { SummarizeOptions, SummarizerObject } from '../../summarize/summarizer.ts';
import { SUMMARIZER_SPECIFICATION_VERSION } from '../../summarize/summarizer.ts';
import { gate, range, settlesWithin, turn, turnNumbers } from './__fixtures__/turns.ts';
import { Memory } from './memory.ts';
import type { MemoryEvents } from './memory-events.ts';
import type { MemoryOptions } from './memory-options.ts';

/** Every original turn number still reachable: archived behind summaries, or active. */
async function allTurnNumbers(store: Store, sessionId: string): Promise<number[]> {
  const out: Message[] = [];
  const expand = async (messages: readonly Message[]): Promise<void> => {
    for (const m of messages) {
      if (isSummaryMessage(m)) await expand(await store.archived(sessionId, m.id));
      else out.push(m);
    }
  };
  await expand((await store.read(sessionId)).messages);
  return turnNumbers(out);
}

describe('Memory compression runs outside the lock', () => {
  it.each([
    { strategy: 'summary' },
    { strategy: 'auto', maxTokens: 250 },
  ] satisfies MemoryOptions[])(
    '$strategy: add() never waits for a blocked summarizer, and turns added meanwhile are kept',
    async (options) => {
      const slow = gate();
      let calls = 0;
      const store = createInMemoryStore();
      const memory = new Memory({
        ...options,
        store,
        sessionId: 's',
        summarizer: async () => {
          calls++;
          await slow.opened;
          return 'Travellers visited several cities.';
        },
      });
      let n = 0;
      while (calls === 0 && n < 50) {
        await memory.add(...turn(++n));
        await new Promise((resolve) => setTimeout(resolve, 5)); // let a triggered run start
      }
      await vi.waitFor(() => expect(calls).toBe(1)); // the summarizer is stuck on the gate
      const compressed: MemoryEvents['compressed'][] = [];
      memory.on('compressed', (e) => compressed.push(e));

      const during = range(n + 1, n + 3);
      for (const i of during) {
        expect(await settlesWithin(memory.add(...turn(i)), 2000)).toBe('settled');
      }
      // A read during the compression shows the pre-compression view, newest turns included.
      const before = await memory.messages();
      expect(before.some(isSummaryMessage)).toBe(false);
      expect(turnNumbers(before).slice(-3)).toEqual(during);
      expect(compressed).toEqual([]);

      slow.open();
      await memory.idle();
      expect(compressed.length).toBeGreaterThanOrEqual(1);
      const after = await memory.messages();
      expect(isSummaryMessage(after[0]!)).toBe(true);
      expect(turnNumbers(after).slice(-3)).toEqual(during); // kept verbatim
      // The blocked compression replaced only what it had planned, nothing added meanwhile.
      const duringIds = new Set(
        (await store.read('s')).messages
          .filter((m) => during.includes(turnNumbers([m])[0]!))
          .map((m) => m.id),
      );
      expect(duringIds.size).toBe(3);
      expect(compressed[0]!.record.originalMessageIds.some((id) => duringIds.has(id))).toBe(false);
      expect(await allTurnNumbers(store, 's')).toEqual(range(1, n + 3)); // nothing lost
    },
  );
});

describe('Memory summarizer timeout', () => {
  const cases = {
    'ignores the signal': () => new Promise<string>(() => {}),
    'honours the signal': (_input: string, { signal }: SummarizeOptions) =>
      new Promise<string>((_resolve, reject) => {
        signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      }),
  };
  for (const [name, summarizer] of Object.entries(cases)) {
    it(`an async summarizer that ${name} times out into the extractive fallback`, async () => {
      const store = createInMemoryStore();
      const memory = new Memory({
        strategy: 'summary',
        summarizer,
        summarizerTimeout: 50,
        store,
        sessionId: 't',
      });
      const fallbacks: MemoryEvents['fallback'][] = [];
      memory.on('fallback', (e) => fallbacks.push(e));
      const started = performance.now();
      for (const i of range(1, 11)) await memory.add(...turn(i));
      await memory.idle();
      expect(performance.now() - started).toBeLessThan(5000);
      expect(fallbacks).toEqual([{ reason: 'timeout', error: expect.anything() }]);
      const [summary, ...rest] = await memory.messages();
      expect(isSummaryMessage(summary!)).toBe(true);
      const text = messageText(summary!);
      expect(text).toMatch(/City[1-6]\b/);
      expect(text).not.toMatch(/timed out|timeout|abort|exception|error:/i);
      expect(turnNumbers(rest)).toEqual(range(7, 11));
      expect(await allTurnNumbers(store, 't')).toEqual(range(1, 11));
    });
  }

  it('null means no deadline: a slow summarizer is waited for', async () => {
    const memory = new Memory({
      strategy: 'summary',
      summarizerTimeout: null,
      summarizer: async () => {
        await new Promise((resolve) => setTimeout(resolve, 80));
        return 'Travellers 1 to 6 visited six cities.';
      },
    });
    const compressed: MemoryEvents['compressed'][] = [];
    memory.on('compressed', (e) => compressed.push(e));
    for (const i of range(1, 11)) await memory.add(...turn(i));
    await memory.idle();
    expect(compressed.map((c) => c.source)).toEqual(['summarizer']);
  });

  it('a failing summarizer or error text never reaches the summary', async () => {
    for (const summarizer of [
      async () => {
        throw new Error('provider exploded');
      },
      async () => 'Error: 429 Too Many Requests',
    ]) {
      const memory = new Memory({ strategy: 'summary', summarizer });
      const fallbacks: MemoryEvents['fallback'][] = [];
      memory.on('fallback', (e) => fallbacks.push(e));
      for (const i of range(1, 11)) await memory.add(...turn(i));
      await memory.idle();
      expect(fallbacks.map((f) => f.reason)).toEqual([expect.stringMatching(/^(error|unusable)$/)]);
      const text = await memory.text();
      expect(text).not.toMatch(/exploded|429|Too Many/);
      expect(text).toMatch(/^Summary of earlier turns: /);
    }
  });
});

describe('Memory summarizer shapes', () => {
  it('accepts an object with summarize(), called once per compression', async () => {
    const calls: Array<{ input: string; options: SummarizeOptions }> = [];
    const summarizer: SummarizerObject = {
      specificationVersion: SUMMARIZER_SPECIFICATION_VERSION,
      async summarize(input, options) {
        calls.push({ input, options });
        return {
          text: 'Travellers 1-6 each visited their own city.',
          usage: { inputTokens: 10, outputTokens: 5 },
        };
      },
    };
    const memory = new Memory({ strategy: 'summary', summarizer });
    const compressed: MemoryEvents['compressed'][] = [];
    memory.on('compressed', (e) => compressed.push(e));
    for (const i of range(1, 11)) await memory.add(...turn(i));
    await memory.idle();
    expect(calls).toHaveLength(1);
    expect(calls[0]!.input).toContain('City6');
    expect(calls[0]!.input).not.toContain('City7');
    expect(calls[0]!.options.signal).toBeInstanceOf(AbortSignal);
    expect(calls[0]!.options.loops).toBe(1);
    expect(compressed.map((c) => c.source)).toEqual(['summarizer']);
    expect(await memory.text()).toMatch(
      /^Summary of earlier turns: Travellers 1-6 each visited their own city\.\nUser: Question 7:/,
    );
  });

  it('lets a Chain of Density summarizer run all its passes in one call', async () => {
    const loops: number[] = [];
    const memory = new Memory({
      strategy: 'summary',
      summarizer: {
        specificationVersion: SUMMARIZER_SPECIFICATION_VERSION,
        capabilities: { chainOfDensity: true },
        async summarize(_input, options) {
          loops.push(options.loops);
          return 'Dense: travellers 1-6, cities City1-City6.';
        },
      },
    });
    for (const i of range(1, 11)) await memory.add(...turn(i));
    await memory.idle();
    expect(loops).toEqual([5]);
  });
});
