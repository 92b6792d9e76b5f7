import { describe, expect, it, vi } from 'vitest';
import { isSummaryMessage, messageText } from '../model/message.ts';
import { createInMemoryStore } from '../store/in-memory-store.ts';
import type { SummarizeOptions } from '../summarize/summarizer.ts';
import { generateConversation } from '../testing/generate-conversation.ts';
import { turnsOf } from './__fixtures__/replay.ts';
import type { FallbackReason } from './engine-events.ts';
import { createMemoryEngine } from './memory-engine.ts';

const profile = {
  long_term_memory_strategy: [
    {
      long_term_memory_id: 'summarizer',
      interaction_threshold_qty: 5,
      interaction_keep: 1,
      cod_max_loops: 1,
    },
  ],
  short_term_memory_strategy: [{ memory_strategy_id: 'max_tokens', memory_max_tokens: 4000 }],
};

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

const turns = (n: number, idPrefix: string) =>
  turnsOf(generateConversation({ interactions: n, seed: 9, idPrefix }));

describe('engine concurrency', () => {
  it('never blocks append on a slow summarizer; turns added meanwhile are all kept', async () => {
    const slow = gate();
    let started = 0;
    const engine = createMemoryEngine({
      profile,
      summarizer: async (input: string) => {
        started++;
        await slow.opened;
        return `Summary: ${input.slice(0, 80)}`;
      },
    });
    const session = engine.session('s');
    const first = turns(6, 'a');
    for (const t of first) await session.append(t);
    await vi.waitFor(() => expect(started).toBe(1)); // compaction running, stuck in the summarizer
    const during = turns(4, 'b');
    for (const t of during) await session.append(t); // returns although the summarizer hangs
    expect((await session.messages()).length).toBe([...first, ...during].flat().length);
    expect((await session.context()).messages.at(-1)!.id).toBe(during.at(-1)!.at(-1)!.id);
    slow.open();
    await session.idle();
    const history = await session.history();
    expect(history.map((m) => m.id)).toEqual([...first, ...during].flat().map((m) => m.id));
    const active = await session.messages();
    expect(isSummaryMessage(active[0]!)).toBe(true);
    // The slow compaction replaced only what it had planned; turns appended meanwhile were
    // not in it (a later compaction may fold them, once the threshold is crossed again).
    const [firstRecord] = await session.summaries();
    const duringIds = new Set(during.flat().map((m) => m.id));
    expect(firstRecord!.originalMessageIds.some((id) => duringIds.has(id))).toBe(false);
    expect(firstRecord!.originalMessageIds).toEqual(
      first
        .slice(0, 5)
        .flat()
        .map((m) => m.id),
    );
  });

  it('two engines compacting one session at once leave one consistent result', async () => {
    const store = createInMemoryStore();
    const gates = [gate(), gate()];
    const make = (i: number) =>
      createMemoryEngine({
        profile,
        store,
        summarizer: async (input: string) => {
          await gates[i]!.opened;
          return `Summary by engine ${i} of ${input.length} chars`;
        },
      });
    const [a, b] = [make(0), make(1)];
    const all = turns(8, 'c');
    for (const t of all.slice(0, 6)) await a.session('s').append(t);
    await b.session('s').append(all[6]!); // b sees 7 interactions and starts its own compaction
    const conflicts: number[] = [];
    a.on('compaction:conflict', (e) => conflicts.push(e.attempt));
    b.on('compaction:conflict', (e) => conflicts.push(e.attempt));
    gates[1]!.open(); // b commits first
    await b.session('s').idle();
    gates[0]!.open(); // a planned at the old epoch: conflict, re-plan on the new state
    await a.session('s').idle();
    expect(conflicts.length).toBeGreaterThanOrEqual(1);
    const records = await store.summaries('s');
    const history = await a.session('s').history();
    expect(history.map((m) => m.id)).toEqual(
      all
        .slice(0, 7)
        .flat()
        .map((m) => m.id),
    );
    const active = (await store.read('s')).messages;
    expect(active.filter(isSummaryMessage)).toHaveLength(1);
    expect(records.length).toBeGreaterThanOrEqual(1);
  });
});

describe('summarizer failures never lose history', () => {
  const cases: Array<
    [string, FallbackReason, (input: string, o: SummarizeOptions) => Promise<string> | string]
  > = [
    [
      'throws',
      'error',
      () => {
        throw new Error('rate limited: 429');
      },
    ],
    ['returns empty', 'unusable', () => '   '],
    [
      'returns error text',
      'unusable',
      () => 'Error: upstream provider returned 500 Internal Server Error',
    ],
    [
      'hangs past the timeout (honours the signal)',
      'timeout',
      (_i, o) =>
        new Promise<string>((_resolve, reject) => {
          o.signal.addEventListener('abort', () => reject(o.signal.reason));
        }),
    ],
    ['hangs and ignores the signal', 'timeout', () => new Promise<string>(() => {})],
  ];

  for (const [name, reason, summarizer] of cases) {
    it(`summarizer ${name}: extractive fallback, an event, nothing lost`, async () => {
      const engine = createMemoryEngine({ profile, summarizer, summarizerTimeout: 100 });
      const fallbacks: FallbackReason[] = [];
      engine.on('summarizer:fallback', (e) => fallbacks.push(e.reason));
      const session = engine.session('s');
      const all = turns(7, 'd');
      for (const t of all) await session.append(t);
      await session.idle();
      expect(fallbacks[0]).toBe(reason);
      const history = await session.history();
      expect(history.map((m) => m.id)).toEqual(all.flat().map((m) => m.id));
      const summary = (await session.messages()).find(isSummaryMessage)!;
      const text = messageText(summary);
      expect(text).toContain('[Previous conversation summary]');
      expect(text).not.toMatch(/rate limited|Internal Server Error/);
      expect(summary.metadata?.source).toBe('fallback');
    });
  }
});
