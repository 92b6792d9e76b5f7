import { describe, expect, it } from 'vitest';
import type { MemoryEngineEvents } from '../engine/engine-events.ts';
import { createMemoryEngine } from '../engine/memory-engine.ts';
import { base, fallbackText, messages, scripted } from './__fixtures__/scripted-summarizer.ts';
import { checkSummary } from './is-usable-summary.ts';
import { runSummarizer } from './run-summarizer.ts';
import { SUMMARIZER_SPECIFICATION_VERSION, type Summarizer } from './summarizer.ts';
import { summarySource } from './summary-grounding.ts';

/*
 * What a fallback tells its reader: a reason code and a sentence that reads as English. A
 * summary check's reason is a predicate ("is empty", "is not about the conversation (...)"),
 * rendered after "the summary" by core and after "it" by summarizers that check themselves.
 */

const OFF_TOPIC = 'The quarterly weather report for Reykjavik predicts sunshine and mild winds.';
const transcript = messages.map((m) => `${m.role}: ${m.content}`).join('\n');

describe('fallback messages read as sentences', () => {
  it('every summary check reason reads after "the summary" or "it", never doubling the word', () => {
    const source = summarySource(transcript);
    const outputs: unknown[] = [42, '', 'Error: upstream timeout', OFF_TOPIC, 'ok ok ok'];
    for (const output of outputs) {
      const check = checkSummary(output, { source });
      expect(check.usable, String(output)).toBe(false);
      if (check.usable) continue;
      expect(check.reason).toMatch(/^(is|looks|holds|has) /);
      expect(`it ${check.reason}`).not.toMatch(/\bit it\b/);
    }
  });

  it('an unusable summary is reported as "the summary is not about the conversation", not "it it"', async () => {
    const { summarizer } = scripted(() => OFF_TOPIC);
    const outcome = await runSummarizer({ ...base, summarizer });
    expect(outcome).toMatchObject({ source: 'fallback', fallbackReason: 'unusable' });
    const message = (outcome.error as Error).message;
    expect(message).toMatch(
      /^\[mem\/core\] summarizer returned unusable output on pass 1 of 3: the summary is not about the conversation \(\d+ of its \d+ terms occur there\); the extractive summary was used\./,
    );
    expect(message).not.toMatch(/\bit it\b/);
    expect(outcome.fallbackDetail).toBe(message.replace('[mem/core] ', ''));
  });

  it('an empty reply reads "the summary is empty"', async () => {
    const { summarizer } = scripted(() => '  ');
    const outcome = await runSummarizer({ ...base, summarizer });
    expect(outcome.fallbackDetail).toMatch(/unusable output on pass 1 of 3: the summary is empty;/);
  });

  it('a summarizer that throws an error marked unusable (in its cause chain) falls back with reason unusable', async () => {
    const rejected = Object.assign(new Error('the summary is unusable: it is empty'), {
      unusable: true,
    });
    const summarizer: Summarizer = {
      specificationVersion: SUMMARIZER_SPECIFICATION_VERSION,
      capabilities: { chainOfDensity: true },
      summarize: async () => {
        throw new Error('[x] Chain of Density: the reply was unusable', { cause: rejected });
      },
    };
    const outcome = await runSummarizer({ ...base, summarizer });
    expect(outcome).toMatchObject({ text: fallbackText, fallbackReason: 'unusable' });
    expect(outcome.fallbackDetail).toMatch(/^summarizer returned unusable output on pass 1 of 3:/);
  });
});

describe('the engine reports a fallback with a reason code and a readable detail', () => {
  async function fallbackEvent(summarizer: Summarizer | undefined) {
    const engine = createMemoryEngine({
      profile: {
        long_term_memory_strategy: [
          { long_term_memory_id: 'summarizer', interaction_threshold_qty: 2 },
        ],
      },
      ...(summarizer === undefined ? {} : { summarizer }),
    });
    const events: MemoryEngineEvents['summarizer:fallback'][] = [];
    engine.on('summarizer:fallback', (e) => events.push(e));
    const session = engine.session('s');
    for (let t = 0; t < 3; t++) {
      await session.append([
        { role: 'user', content: `Where is order AF-10${t}? Priya Raman asked.` },
        { role: 'assistant', content: `Order AF-10${t} ships Tuesday from Rotterdam.` },
      ]);
    }
    await session.idle();
    expect(events).toHaveLength(1);
    return events[0]!;
  }

  it('a summary rejected as unusable: reason "unusable" and the check in detail', async () => {
    const event = await fallbackEvent(async () => OFF_TOPIC);
    expect(event.reason).toBe('unusable');
    expect(event.detail).toMatch(/: the summary is not about the conversation \(/);
    expect(event.detail).not.toMatch(/\bit it\b/);
    expect((event.error as Error).message).toContain(event.detail);
  });

  it('a summarizer that throws: reason "error" and its message in detail', async () => {
    const event = await fallbackEvent(async () => {
      throw new Error('ECONNRESET');
    });
    expect(event).toMatchObject({ reason: 'error' });
    expect(event.detail).toMatch(/^summarizer failed on pass 1 of \d+: ECONNRESET;/);
  });

  it('no summarizer configured: reason "none-configured", a detail and no error', async () => {
    const event = await fallbackEvent(undefined);
    expect(event).toStrictEqual({
      sessionId: 's',
      reason: 'none-configured',
      detail: 'no summarizer is configured; the extractive summary was used.',
    });
  });
});
