import { describe, expect, it } from 'vitest';
import { MemSummarizerError, MemValidationError } from '../errors/errors.ts';
import { messageText } from '../model/message.ts';
import type { SummaryGate } from '../summarize/summary-gate.ts';
import type { MemoryEngineEvents } from './engine-events.ts';
import { createMemoryEngine } from './memory-engine.ts';

/*
 * Issue 23 through the engine: the `summaryGate` option decides whether a summarizer's reply may
 * replace history; every rejection is a `summarizer:fallback` event with its reason, and what is
 * stored instead is the extractive summary. History is never lost.
 */

const FRENCH_TURNS: [string, string][] = [
  [
    'Bonjour, je voudrais échanger mon billet TGV 6611 Paris–Lyon du 3 avril.',
    'Le TGV 6615 part à 11 h 04 ; échange gratuit.',
  ],
  ['Parfait, je prends.', 'C’est fait : nouveau dossier KJHT2L, voiture 14, place 62.'],
  ['Merci !', 'Bon voyage.'],
];
const JAPANESE_TURNS: [string, string][] = [
  ['明日の定例会議を午前10時に変更できますか？', 'はい、明日10時から第2会議室に変更しました。'],
  ['資料は前日までに共有してください。', '承知しました。今日中にアップロードします。'],
  ['ありがとう。', 'どういたしまして。'],
];

async function run(
  turns: [string, string][],
  reply: string,
  summaryGate?: unknown,
): Promise<{
  context: string;
  fallbacks: MemoryEngineEvents['summarizer:fallback'][];
  compacted: MemoryEngineEvents['compacted'][];
  history: number;
}> {
  const engine = createMemoryEngine({
    profile: {
      long_term_memory_strategy: [
        { long_term_memory_id: 'summarizer', interaction_threshold_qty: 2, cod_max_loops: 1 },
      ],
    },
    summarizer: async () => reply,
    ...(summaryGate === undefined ? {} : { summaryGate: summaryGate as SummaryGate }),
  });
  const fallbacks: MemoryEngineEvents['summarizer:fallback'][] = [];
  const compacted: MemoryEngineEvents['compacted'][] = [];
  engine.on('summarizer:fallback', (e) => fallbacks.push(e));
  engine.on('compacted', (e) => compacted.push(e));
  const session = engine.session('s');
  for (const [user, assistant] of turns) {
    await session.append([
      { role: 'user', content: user },
      { role: 'assistant', content: assistant },
    ]);
  }
  await session.idle();
  const context = (await session.context()).messages.map((m) => messageText(m)).join('\n');
  return { context, fallbacks, compacted, history: (await session.history()).length };
}

describe('the engine’s summary gate (summaryGate)', () => {
  it('by default, a French server error naming the booking never becomes the summary', async () => {
    const error =
      'Désolé, une erreur interne est survenue pour le dossier KJHT2L. Veuillez réessayer plus tard.';
    const { context, fallbacks, compacted, history } = await run(FRENCH_TURNS, error);
    expect(context).not.toContain('erreur interne');
    expect(fallbacks).toHaveLength(1);
    expect(fallbacks[0]).toMatchObject({ reason: 'unusable' });
    expect(fallbacks[0]?.detail).toMatch(/the summary looks like an error message or refusal/);
    expect(compacted[0]?.source).toBe('fallback');
    expect(history).toBe(6);
  });

  it('by default, an English summary of a Japanese conversation is stored, with no fallback', async () => {
    const summary =
      "Tomorrow's regular meeting moved to 10 a.m. in meeting room 2; materials will be uploaded today.";
    const { context, fallbacks, compacted } = await run(JAPANESE_TURNS, summary);
    expect(fallbacks).toEqual([]);
    expect(compacted[0]?.source).toBe('summarizer');
    expect(context).toContain(summary);
  });

  it("'errors-only' keeps a summary that shares nothing with the conversation, but not an error", async () => {
    const offTopic = 'The quarterly weather report for Reykjavik predicts sunshine and mild winds.';
    expect((await run(FRENCH_TURNS, offTopic)).fallbacks[0]?.detail).toMatch(
      /not about the conversation/,
    );
    const kept = await run(FRENCH_TURNS, offTopic, 'errors-only');
    expect(kept.fallbacks).toEqual([]);
    expect(kept.context).toContain(offTopic);
    const error = await run(FRENCH_TURNS, 'Service momentanément indisponible.', 'errors-only');
    expect(error.fallbacks[0]).toMatchObject({ reason: 'unusable' });
  });

  it("'off' judges no content: an error text is stored, an empty reply still falls back", async () => {
    const stored = await run(FRENCH_TURNS, 'Service momentanément indisponible.', 'off');
    expect(stored.fallbacks).toEqual([]);
    expect(stored.context).toContain('Service momentanément indisponible.');
    const empty = await run(FRENCH_TURNS, '   ', 'off');
    expect(empty.fallbacks[0]?.detail).toMatch(/the summary is empty/);
  });

  it('a gate function of your own decides, can ask a built-in gate, and its reason is reported', async () => {
    const seen: string[] = [];
    const gate: SummaryGate = (summary, { transcript, builtIn }) => {
      seen.push(transcript);
      if (!summary.includes('KJHT2L')) return { usable: false, reason: 'names no booking' };
      return builtIn('default');
    };
    const rejected = await run(FRENCH_TURNS, 'Billet échangé pour le TGV 6615.', gate);
    expect(rejected.fallbacks[0]).toMatchObject({ reason: 'unusable' });
    expect(rejected.fallbacks[0]?.detail).toMatch(
      /the summary was rejected by the summaryGate function: names no booking;/,
    );
    expect(seen[0]).toContain('TGV 6611');
    const error = await run(FRENCH_TURNS, 'Dossier KJHT2L : veuillez réessayer plus tard.', gate);
    expect(error.fallbacks[0]?.detail).toMatch(/looks like an error message or refusal/);
    const kept = await run(FRENCH_TURNS, 'TGV 6615, dossier KJHT2L, voiture 14.', gate);
    expect(kept.fallbacks).toEqual([]);
    expect(kept.context).toContain('dossier KJHT2L, voiture 14');
  });

  it('a gate function that throws or answers no verdict: fallback "error", a MemSummarizerError naming summaryGate, history kept', async () => {
    const gates: [SummaryGate, RegExp][] = [
      [
        () => {
          throw new TypeError('boom');
        },
        /the summaryGate function threw TypeError: boom/,
      ],
      [
        (() => 'yes') as unknown as SummaryGate,
        /the summaryGate function returned "yes", not true/,
      ],
      [
        (async () => true) as unknown as SummaryGate,
        /returned a Promise \(a gate must answer synchronously\)/,
      ],
      [
        (() => ({ usable: false })) as unknown as SummaryGate,
        /returned the object \{"usable":false\}/,
      ],
    ];
    for (const [gate, message] of gates) {
      const { fallbacks, history, compacted } = await run(FRENCH_TURNS, 'TGV 6615, KJHT2L.', gate);
      expect(fallbacks).toHaveLength(1);
      expect(fallbacks[0]?.reason).toBe('error');
      const error = fallbacks[0]?.error;
      expect(MemSummarizerError.isInstance(error)).toBe(true);
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).toMatch(/the extractive summary was used\. Fix it/);
      expect(compacted[0]?.source).toBe('fallback');
      expect(history).toBe(6);
    }
  });

  it('refuses a bad summaryGate with a MemValidationError naming the field and the choices', () => {
    for (const bad of ['strict', 42, null, { usable: true }]) {
      let thrown: unknown;
      try {
        createMemoryEngine({ profile: {}, summaryGate: bad as SummaryGate });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(MemValidationError);
      expect((thrown as MemValidationError).field).toBe('summaryGate');
      expect((thrown as Error).message).toMatch(/'default', 'errors-only', 'off' or a function/);
    }
  });
});
