import { describe, expect, it } from 'vitest';
import type { FallbackReason } from '../../engine/engine-events.ts';
import { MemConfigError, MemSummarizerError } from '../../errors/errors.ts';
import type { SummaryGate } from '../../summarize/summary-gate.ts';
import { addTurns } from './__fixtures__/turns.ts';
import { MemoryManager } from './memory-manager.ts';
import type { MemoryManagerOptions } from './memory-manager-config.ts';

/** Compresses a 3-turn session once with `options`; returns the context and the fallbacks. */
async function compressWith(options: MemoryManagerOptions, replace?: (m: MemoryManager) => void) {
  const memory = new MemoryManager({
    autoCompress: false,
    recentWindow: 4,
    minEntriesToCompress: 1,
    ...options,
  });
  replace?.(memory);
  const fallbacks: [FallbackReason, unknown][] = [];
  memory.on('summarizer:fallback', (_id, reason, error) => fallbacks.push([reason, error]));
  await addTurns(memory, 's', 3);
  await memory.compress('s');
  return { context: await memory.getContextForLLM('s'), fallbacks };
}

const messageOf = (error: unknown) => (error as Error | undefined)?.message ?? '';
const ERROR_REPLY = 'Désolé, une erreur interne est survenue. Veuillez réessayer plus tard.';
const SUMMARY = 'Routes 0 and 1 of the API were configured and registered in the router.';

describe('the MemoryManager’s summarize callback goes through the summary gate', () => {
  it('by default: a French error reply is not stored, and summarizer:fallback says why', async () => {
    const { context, fallbacks } = await compressWith({
      summarizeCallback: async () => ERROR_REPLY,
    });
    expect(context).not.toContain('erreur interne');
    expect(fallbacks).toHaveLength(1);
    expect(fallbacks[0]?.[0]).toBe('unusable');
    expect(messageOf(fallbacks[0]?.[1])).toMatch(/looks like an error message or refusal/);
  });

  it('with its summaryGate option, also for a callback set later', async () => {
    const gate: SummaryGate = (summary) =>
      summary.includes('router') ? true : { usable: false, reason: 'does not mention the router' };
    const later = await compressWith({ summaryGate: gate }, (m) =>
      m.setSummarizeCallback(async () => 'Routes were configured.'),
    );
    expect(later.fallbacks[0]?.[0]).toBe('unusable');
    expect(messageOf(later.fallbacks[0]?.[1])).toMatch(
      /rejected by the summaryGate function: does not mention the router/,
    );
    const kept = await compressWith({ summaryGate: gate, summarizeCallback: async () => SUMMARY });
    expect(kept.fallbacks).toEqual([]);
    expect(kept.context).toContain(SUMMARY);
    const off = await compressWith({
      summaryGate: 'off',
      summarizeCallback: async () => ERROR_REPLY,
    });
    expect(off.fallbacks).toEqual([]);
    expect(off.context).toContain(ERROR_REPLY);
  });

  it('reports a gate function that throws as a MemSummarizerError naming summaryGate', async () => {
    const { fallbacks, context } = await compressWith({
      summarizeCallback: async () => SUMMARY,
      summaryGate: () => {
        throw new Error('gate down');
      },
    });
    expect(fallbacks[0]?.[0]).toBe('error');
    expect(MemSummarizerError.isInstance(fallbacks[0]?.[1])).toBe(true);
    expect(messageOf(fallbacks[0]?.[1])).toMatch(/summaryGate function threw Error: gate down/);
    expect(context).toContain('Question 2');
  });

  it('refuses a bad summaryGate with a MemConfigError naming it', () => {
    let thrown: unknown;
    try {
      new MemoryManager({ summaryGate: 'lenient' as SummaryGate });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(MemConfigError);
    expect((thrown as MemConfigError).issues).toEqual([
      {
        path: 'summaryGate',
        message: expect.stringMatching(/^expected 'default', 'errors-only', 'off' or a function/),
      },
    ]);
  });
});
