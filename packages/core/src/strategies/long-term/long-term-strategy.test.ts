import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseProfile } from '../../config/parse-profile.ts';
import { createMemoryEngine } from '../../engine/memory-engine.ts';
import { MemError } from '../../errors/mem-error.ts';
import { InteractionLog } from '../../model/interaction-log.ts';
import { isSummaryMessage } from '../../model/message.ts';
import type { StoredMessage } from '../../store/store-spec.ts';
import { SUMMARIZER_SPECIFICATION_VERSION } from '../../summarize/summarizer.ts';
import { createTokenCounter } from '../../tokens/token-counter.ts';
import { neuralyzerStrategy, summarizerStrategy } from './builtin-strategies.ts';
import type { CustomLongTermConfig, LongTermStrategy } from './long-term-strategy.ts';
import { planPrefix } from './plan-prefix.ts';

const counter = createTokenCounter();

function stored(turns: number, start = 1): StoredMessage[] {
  const out: StoredMessage[] = [];
  let seq = start;
  for (let t = 0; t < turns; t++) {
    for (const [role, content] of [
      ['user', `question ${t}`],
      ['assistant', `answer ${t}`],
    ] as const) {
      const draft = { id: `m${seq}`, role, content, createdAt: 1_000 * seq };
      out.push({ ...draft, seq, tokenCount: counter.countMessage(draft) });
      seq++;
    }
  }
  return out;
}

/** Keeps the last `keep_turns` interactions whose user message is not marked important. */
const keepRecent: LongTermStrategy<CustomLongTermConfig & { keep_turns: number }> = {
  id: 'keep_recent',
  fields: { keep_turns: z.number().int().min(1).default(2) },
  plan(log, config) {
    const prefix = planPrefix(log, config.keep_turns);
    return prefix === undefined ? undefined : { action: 'erase', prefix };
  },
};

/** Summarizes with fixed instructions once there is anything older than the newest turn. */
const digest: LongTermStrategy = {
  id: 'digest',
  plan(log) {
    const prefix = planPrefix(log, 1);
    return prefix === undefined
      ? undefined
      : { action: 'summarize', prefix, instructions: 'Keep names.', loops: 1 };
  },
};

describe('built-in long-term strategies', () => {
  const log = new InteractionLog<StoredMessage>(stored(5));
  const summarizer = parseProfile({
    long_term_memory_strategy: [
      { long_term_memory_id: 'summarizer', interaction_keep: 2, instructions: 'Be brief.' },
    ],
  }).longTerm[0]!.config;
  const neuralyzer = parseProfile({
    long_term_memory_strategy: [{ long_term_memory_id: 'neuralyzer', interaction_keep: 3 }],
  }).longTerm[0]!.config;

  it('the summarizer plans to summarize all but the kept interactions, with its instructions', () => {
    const plan = summarizerStrategy.plan(log, summarizer as never);
    expect(plan?.action).toBe('summarize');
    if (plan?.action !== 'summarize') return;
    expect(plan.prefix.interactions).toBe(3);
    expect(plan.prefix.replaced.map((m) => m.id)).toEqual(['m1', 'm2', 'm3', 'm4', 'm5', 'm6']);
    expect(plan.instructions).toBe('Be brief.');
    expect(plan.loops).toBe(5);
  });

  it('the neuralyzer plans to erase all but the kept interactions', () => {
    const plan = neuralyzerStrategy.plan(log, neuralyzer as never);
    expect(plan).toMatchObject({ action: 'erase', prefix: { interactions: 2, throughSeq: 4 } });
  });

  it('plans nothing when every interaction is kept', () => {
    const short = new InteractionLog<StoredMessage>(stored(2));
    expect(summarizerStrategy.plan(short, summarizer as never)).toBeUndefined();
    expect(neuralyzerStrategy.plan(short, neuralyzer as never)).toBeUndefined();
  });
});

describe('registered long-term strategies', () => {
  const profile = {
    short_term_memory_strategy: [{ memory_strategy_id: 'max_tokens', memory_max_tokens: 4000 }],
    long_term_memory_strategy: [
      { long_term_memory_id: 'keep_recent', interaction_threshold_qty: 3, keep_turns: 2 },
    ],
  };

  it('runs by id when its trigger fires, with its own fields parsed and defaulted', async () => {
    const engine = createMemoryEngine({ profile, longTermStrategies: [keepRecent] });
    const triggered: string[] = [];
    const erased: number[] = [];
    engine.on('triggered', (e) => triggered.push(e.strategy));
    engine.on('erased', (e) => erased.push(e.erasedCount));
    const session = engine.session('s');
    for (let t = 0; t < 4; t++) {
      await session.append([
        { role: 'user', content: `question ${t}` },
        { role: 'assistant', content: `answer ${t}` },
      ]);
    }
    await session.idle();
    expect(triggered).toContain('keep_recent');
    expect(erased.reduce((a, b) => a + b, 0)).toBe(4);
    const left = (await session.messages()).map((m) => m.content);
    expect(left).toEqual(['question 2', 'answer 2', 'question 3', 'answer 3']);

    const defaulted = parseProfile(
      { long_term_memory_strategy: [{ long_term_memory_id: 'keep_recent' }] },
      { longTermStrategies: [keepRecent] },
    ).longTerm[0]!.config;
    expect(defaulted).toMatchObject({
      keep_turns: 2,
      interaction_threshold_qty: -1,
      interaction_threshold_tokens: -1,
      interaction_keep: 0,
    });
  });

  it('a strategy that plans a summary gets a stored summary with its instructions used', async () => {
    const instructions: (string | null | undefined)[] = [];
    const engine = createMemoryEngine({
      profile: {
        long_term_memory_strategy: [
          { long_term_memory_id: 'digest', interaction_threshold_qty: 2 },
        ],
      },
      longTermStrategies: [digest],
      summarizer: {
        specificationVersion: SUMMARIZER_SPECIFICATION_VERSION,
        async summarize(_messages, options) {
          instructions.push(options.instructions);
          return 'The user asked questions 0 and 1 and got answers 0 and 1.';
        },
      },
    });
    const session = engine.session('s');
    for (let t = 0; t < 3; t++) {
      await session.append([
        { role: 'user', content: `question ${t}` },
        { role: 'assistant', content: `answer ${t}` },
      ]);
    }
    await session.idle();
    const active = await session.messages();
    expect(active.filter(isSummaryMessage)).toHaveLength(1);
    expect(active.at(-1)!.content).toBe('answer 2');
    expect(instructions[0]).toContain('Keep names.');
    expect((await session.history()).map((m) => m.content)).toContain('question 0');
  });

  it("refuses an entry's unknown or ill-typed fields, naming the path", () => {
    const parse = (entry: object) =>
      parseProfile({ long_term_memory_strategy: [entry] }, { longTermStrategies: [keepRecent] });
    expect(() => parse({ long_term_memory_id: 'keep_recent', keep_turns: 'two' })).toThrow(
      /long_term_memory_strategy\[0\]\.keep_turns/,
    );
    expect(() => parse({ long_term_memory_id: 'keep_recent', cod_max_loops: 2 })).toThrow(
      /cod_max_loops/,
    );
    expect(() => parse({ long_term_memory_id: 'keep_old' })).toThrow(
      /expected long_term_memory_id "summarizer", "neuralyzer", "keep_recent"/,
    );
  });

  it('refuses an id that is taken, registered twice or not snake_case', () => {
    const refused = (list: unknown[], field: string) => {
      try {
        createMemoryEngine({ profile: {}, longTermStrategies: list as LongTermStrategy[] });
      } catch (error) {
        expect(MemError.hasCode(error, 'MEM_VALIDATION')).toBe(true);
        expect((error as { field: string }).field).toBe(field);
        return;
      }
      expect.unreachable('accepted');
    };
    refused([{ ...keepRecent, id: 'summarizer' }], 'longTermStrategies[0].id');
    refused([keepRecent, keepRecent], 'longTermStrategies[1].id');
    refused([{ ...keepRecent, id: 'Keep Recent' }], 'longTermStrategies[0].id');
    refused([{ id: 'no_plan' }], 'longTermStrategies[0].plan');
    refused(
      [{ ...keepRecent, fields: { long_term_memory_id: z.string() } }],
      'longTermStrategies[0].fields.long_term_memory_id',
    );
  });

  it('an engine refuses a parsed profile naming a strategy it was not given', () => {
    const parsed = parseProfile(profile, { longTermStrategies: [keepRecent] });
    expect(() => createMemoryEngine({ profile: parsed })).toThrow(
      /"keep_recent", which is not registered: pass it in createMemoryEngine\(\{ longTermStrategies \}\)/,
    );
    expect(() => createMemoryEngine({ profile })).toThrow(/expected long_term_memory_id/);
  });
});
