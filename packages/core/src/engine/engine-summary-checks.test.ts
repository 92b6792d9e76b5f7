import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isSummaryMessage, type Message, messageText } from '../model/message.ts';
import { createInMemoryStore } from '../store/in-memory-store.ts';
import { PROVIDER_ERROR_REPLIES } from '../summarize/__fixtures__/provider-error-replies.ts';
import { SUMMARIZER_SPECIFICATION_VERSION, type Summarizer } from '../summarize/summarizer.ts';
import { createTokenCounter, type TokenCounter } from '../tokens/token-counter.ts';
import { turnsOf } from './__fixtures__/replay.ts';
import type { MemoryEngineEvents } from './engine-events.ts';
import { createMemoryEngine, type MemoryEngineOptions } from './memory-engine.ts';

/**
 * Issue 10, cases 4 and 12, through the engine on an in-memory store: a summarizer reply that is
 * a provider's or the network's error text never becomes the summary, and `maxSummaryTokens`
 * bounds every stored summary, with or without a short-term window.
 */

const sessions = (
  JSON.parse(
    readFileSync(new URL('../../examples/support-desk.conversation.json', import.meta.url), 'utf8'),
  ) as { sessions: { messages: Message[] }[] }
).sessions;
/** Session 1 of the bundled support-desk conversation (45 messages, tool calls, ids, amounts). */
const supportDesk = sessions[0]!.messages;
/** All four sessions as one conversation (~12,000 tokens), system prompts left out. */
const allSessions = sessions.flatMap((s) => s.messages).filter((m) => m.role !== 'system');

const windowed = {
  short_term_memory_strategy: [{ memory_strategy_id: 'max_tokens', memory_max_tokens: 6000 }],
  long_term_memory_strategy: [
    {
      long_term_memory_id: 'summarizer',
      interaction_threshold_qty: 6,
      interaction_keep: 1,
      cod_max_loops: 2,
    },
  ],
};

/** No short-term window (the whole conversation is the prompt); compacts past `tokens` tokens. */
const windowless = (tokens: number) => ({
  long_term_memory_strategy: [
    {
      long_term_memory_id: 'summarizer',
      interaction_threshold_qty: -1,
      interaction_threshold_tokens: tokens,
      interaction_keep: 1,
      cod_max_loops: 1,
    },
  ],
});

type Recorded = { [E in keyof MemoryEngineEvents]: MemoryEngineEvents[E][] };

function engineWith(options: Omit<MemoryEngineOptions, 'store'>) {
  const store = createInMemoryStore();
  const engine = createMemoryEngine({ ...options, store });
  const events = { compacted: [], 'summarizer:fallback': [] } as unknown as Recorded;
  engine.on('compacted', (e) => events.compacted.push(e));
  engine.on('summarizer:fallback', (e) => events['summarizer:fallback'].push(e));
  return { engine, events };
}

/** Appends `messages` turn by turn, letting compaction settle after each. */
async function play(engine: ReturnType<typeof engineWith>['engine'], messages: Message[]) {
  const session = engine.session('s');
  for (const turn of turnsOf(messages)) {
    await session.append(turn);
    await session.idle();
  }
  return session;
}

describe('a summarizer reply that is provider or network error text (issue 10, case 4)', () => {
  const played = supportDesk.slice(1, 30);

  for (const reply of PROVIDER_ERROR_REPLIES) {
    for (const [shape, summarizer] of [
      ['a function', () => reply],
      [
        'a Chain of Density object',
        {
          specificationVersion: SUMMARIZER_SPECIFICATION_VERSION,
          capabilities: { chainOfDensity: true },
          summarize: async () => ({ text: reply }),
        },
      ],
    ] as [string, Summarizer][]) {
      it(`${JSON.stringify(reply.slice(0, 40))} from ${shape}: fallback event, nothing stored, history intact`, async () => {
        const { engine, events } = engineWith({ profile: windowed, summarizer });
        const session = await play(engine, played);

        expect(events.compacted.length).toBeGreaterThanOrEqual(1);
        for (const c of events.compacted) expect(c.source).toBe('fallback');
        expect(events['summarizer:fallback'].length).toBe(events.compacted.length);
        for (const f of events['summarizer:fallback']) expect(f.reason).toBe('unusable');

        const summaries = (await session.messages()).filter(isSummaryMessage).map(messageText);
        expect(summaries).toHaveLength(1);
        for (const text of summaries) {
          expect(text).not.toContain(reply);
          expect(text).not.toMatch(/sk-proj|\*{8}|ECONNREFUSED|status code 500|Bad Gateway/);
        }
        const history = await session.history();
        expect(history.map((m) => m.id)).toEqual(played.map((m) => m.id));
        expect(await session.summaries()).toHaveLength(events.compacted.length);
      });
    }
  }

  it('an API key fragment inside an otherwise plausible reply is never stored', async () => {
    const reply =
      'Maren asked about the Hamburg delivery to Elbwerk. Error: Incorrect API key provided: sk-proj-Ab12cd34ef56gh78ij90kl12mn34op56.';
    const { engine, events } = engineWith({ profile: windowed, summarizer: () => reply });
    const session = await play(engine, played);
    expect(events['summarizer:fallback'].length).toBeGreaterThanOrEqual(1);
    for (const text of (await session.messages()).filter(isSummaryMessage).map(messageText)) {
      expect(text).not.toMatch(/sk-proj/);
    }
  });

  it('a real summary of the conversation is still accepted', async () => {
    const summary =
      'Maren reported the Hamburg delivery to Elbwerk came back with a complaint; Orla looked up the shipments and followed up with Tomasz.';
    const { engine, events } = engineWith({ profile: windowed, summarizer: () => summary });
    const session = await play(engine, played);
    expect(events['summarizer:fallback']).toEqual([]);
    const [stored] = (await session.messages()).filter(isSummaryMessage).map(messageText);
    expect(stored).toContain(summary);
  });
});

/** A token counter that records the longest text it was asked to count. */
function recordingCounter(): TokenCounter & { longest: number } {
  const inner = createTokenCounter();
  const counter = {
    ...inner,
    longest: 0,
    countText(text: string) {
      counter.longest = Math.max(counter.longest, text.length);
      return inner.countText(text);
    },
  };
  return counter;
}

/** A summarizer that answers with the start of its input, about `tokens` tokens: long but on topic. */
function verbatim(tokens: number): Summarizer {
  const counter = createTokenCounter();
  return (input: string) => {
    const words = input.split(' ');
    let end = 1;
    while (end < words.length && counter.countText(words.slice(0, end + 10).join(' ')) <= tokens) {
      end += 10;
    }
    return words.slice(0, end).join(' ');
  };
}

/** Tokens of a summary message around its text (overhead and the header line); see compact-session. */
const FRAME = 40;

describe('maxSummaryTokens bounds every summary (issue 10, case 12)', () => {
  it('without a short-term window, the default 2,000 tokens still caps a long summarizer reply', async () => {
    const { engine, events } = engineWith({
      profile: windowless(8000),
      summarizer: verbatim(4000),
    });
    const session = await play(engine, allSessions);
    const records = await session.summaries();
    expect(records.length).toBeGreaterThanOrEqual(1);
    for (const r of records) expect(r.tokenCount).toBeLessThanOrEqual(2000 + FRAME);
    expect(events['summarizer:fallback'].map((e) => e.reason)).toContain('unusable');
    const history = await session.history();
    expect(history.map((m) => m.id)).toEqual(allSessions.map((m) => m.id));
  });

  it('without a window, a configured maxSummaryTokens caps the summary and the fallback', async () => {
    const { engine, events } = engineWith({
      profile: windowless(2000),
      summarizer: verbatim(900),
      maxSummaryTokens: 300,
    });
    const session = await play(engine, supportDesk.slice(1));
    const records = await session.summaries();
    expect(records.length).toBeGreaterThanOrEqual(1);
    for (const r of records) expect(r.tokenCount).toBeLessThanOrEqual(300 + FRAME);
    expect(events['summarizer:fallback'].length).toBe(records.length);
    expect(events.compacted.every((c) => c.source === 'fallback')).toBe(true);
  });

  it('a reply within the cap is kept', async () => {
    const { engine, events } = engineWith({
      profile: windowless(2000),
      summarizer: verbatim(150),
      maxSummaryTokens: 300,
    });
    const session = await play(engine, supportDesk.slice(1));
    expect(events.compacted.length).toBeGreaterThanOrEqual(1);
    expect(events['summarizer:fallback']).toEqual([]);
    for (const r of await session.summaries())
      expect(r.tokenCount).toBeLessThanOrEqual(300 + FRAME);
  });

  it('a 150,000-character reply is rejected without being tokenized', async () => {
    const tokenCounter = recordingCounter();
    const { engine, events } = engineWith({
      profile: windowless(2000),
      summarizer: () => 'a'.repeat(150_000),
      tokenCounter,
      summarizerTimeout: 2000,
    });
    const session = await play(engine, supportDesk.slice(1, 30));
    expect(events['summarizer:fallback'].map((e) => e.reason)).toEqual(['unusable']);
    expect(tokenCounter.longest).toBeLessThan(150_000);
    for (const text of (await session.messages()).filter(isSummaryMessage).map(messageText)) {
      expect(text).not.toContain('aaaaaaaaaa');
    }
  });

  it('rejects a maxSummaryTokens the extractive fallback could not honour', () => {
    for (const bad of [0, -1, 10, 63, 2.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() =>
        createMemoryEngine({ profile: windowless(2000), maxSummaryTokens: bad }),
      ).toThrow(/maxSummaryTokens/);
    }
  });
});
