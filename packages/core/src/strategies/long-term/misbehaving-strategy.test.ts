import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMemoryEngine } from '../../engine/memory-engine.ts';
import { MemError } from '../../errors/mem-error.ts';
import { isSummaryMessage } from '../../model/message.ts';
import type { LongTermPlan, LongTermStrategy } from './long-term-strategy.ts';
import { planPrefix } from './plan-prefix.ts';

/*
 * A registered long-term strategy is user code. Whatever its plan() does — throw, return a
 * number, an unknown action, an empty or made-up prefix — the engine reports a MemError naming
 * the strategy and what plan() must return, writes nothing, and the session goes on working.
 */

const ID = 'my_strategy';

/** A strategy whose plan() returns `returns(log)`, for a profile that runs it after 2 turns. */
function engineWith(plan: LongTermStrategy['plan']) {
  const strategy: LongTermStrategy = { id: ID, plan };
  const engine = createMemoryEngine({
    profile: {
      long_term_memory_strategy: [{ long_term_memory_id: ID, interaction_threshold_qty: 2 }],
    },
    longTermStrategies: [strategy],
  });
  const errors: unknown[] = [];
  engine.on('compaction:error', (e) => errors.push(e.error));
  return { engine, errors };
}

async function converse(engine: ReturnType<typeof engineWith>['engine'], turns: number) {
  const session = engine.session('s');
  for (let t = 0; t < turns; t++) {
    await session.append([
      { role: 'user', content: `question ${t}` },
      { role: 'assistant', content: `answer ${t}` },
    ]);
  }
  await session.idle();
  return session;
}

const turnTexts = (turns: number) =>
  Array.from({ length: turns }, (_, t) => [`question ${t}`, `answer ${t}`]).flat();

/** The error was a MemError naming the strategy and saying what plan() must return. */
function expectNamedError(errors: unknown[], detail: RegExp): MemError {
  expect(errors.length).toBeGreaterThan(0);
  const error = errors[0];
  expect(MemError.isInstance(error), `a MemError, got ${String(error)}`).toBe(true);
  const { message } = error as MemError;
  expect((error as MemError).code).toBe('MEM_VALIDATION');
  expect(message).toMatch(/^\[mem\/core\] long-term strategy "my_strategy"/);
  expect(message).toContain('long_term_memory_strategy[0]');
  expect(message).toContain("plan() must return undefined (nothing to do), { action: 'summarize'");
  expect(message).toMatch(detail);
  return error as MemError;
}

const cases: [string, LongTermStrategy['plan'], RegExp][] = [
  [
    'an unknown action',
    () => ({ action: 'explode' }) as never,
    /returned an invalid plan \(action/,
  ],
  ['a number', () => 42 as never, /plan\(\) returned 42/],
  ['null', () => null as never, /plan\(\) returned null/],
  [
    'a summarize plan with no messages',
    (log) => {
      const prefix = planPrefix(log, 1)!;
      return {
        action: 'summarize',
        prefix: { ...prefix, replaced: [] },
        instructions: null,
        loops: 1,
      };
    },
    /prefix\.replaced: must hold at least one message/,
  ],
  [
    'an erase plan through a seq past its messages',
    (log) => {
      const prefix = planPrefix(log, 1)!;
      return { action: 'erase', prefix: { ...prefix, throughSeq: prefix.throughSeq + 100 } };
    },
    /ends at throughSeq \d+, not at its last message/,
  ],
  [
    'an erase plan naming a message that is not in the session',
    (log) => {
      const prefix = planPrefix(log, 1)!;
      const forged = { ...prefix.replaced[0]!, id: 'not-there' };
      return {
        action: 'erase',
        prefix: { ...prefix, replaced: [forged, ...prefix.replaced.slice(1)] },
      };
    },
    /replaces a message not in the session \(replaced\[0\]/,
  ],
  [
    'an erase plan that skips a message up to its throughSeq',
    (log) => {
      const prefix = planPrefix(log, 1)!;
      return { action: 'erase', prefix: { ...prefix, replaced: prefix.replaced.slice(1) } };
    },
    /leaves out seq 1: every message up to throughSeq is replaced or kept/,
  ],
];

describe('a registered long-term strategy that misbehaves', () => {
  for (const [what, plan, detail] of cases) {
    it(`plan() returning ${what}: compaction:error carries a MemError naming the strategy, history is unchanged, the session still works`, async () => {
      const { engine, errors } = engineWith(plan);
      const session = await converse(engine, 3);
      expectNamedError(errors, detail);
      expect((await session.history()).map((m) => m.content)).toEqual(turnTexts(3));
      expect((await session.messages()).map((m) => m.content)).toEqual(turnTexts(3));
      await session.append([
        { role: 'user', content: 'question 3' },
        { role: 'assistant', content: 'answer 3' },
      ]);
      await session.idle();
      expect((await session.context()).messages.map((m) => m.content)).toEqual(turnTexts(4));
    });
  }

  it('plan() that throws: the MemError names the strategy and keeps the thrown error as cause', async () => {
    const thrown = new TypeError("Cannot read properties of undefined (reading 'seq')");
    const { engine, errors } = engineWith(() => {
      throw thrown;
    });
    const session = await converse(engine, 3);
    const error = expectNamedError(errors, /plan\(\) threw \(TypeError: Cannot read properties/);
    expect(error.cause).toBe(thrown);
    expect((await session.history()).map((m) => m.content)).toEqual(turnTexts(3));
  });

  it('an async plan() that rejects is reported the same way, with the rejection as cause', async () => {
    const rejection = new RangeError('out of range');
    const { engine, errors } = engineWith(async () => {
      throw rejection;
    });
    const session = await converse(engine, 3);
    const error = expectNamedError(errors, /plan\(\) threw \(RangeError: out of range\)/);
    expect(error.cause).toBe(rejection);
    expect((await session.history()).map((m) => m.content)).toEqual(turnTexts(3));
  });

  it('an async plan() that resolves to a plan is supported: the plan is awaited and carried out', async () => {
    const { engine, errors } = engineWith(async (log): Promise<LongTermPlan | undefined> => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      const prefix = planPrefix(log, 1);
      return prefix === undefined ? undefined : { action: 'erase', prefix };
    });
    const session = await converse(engine, 3);
    expect(errors).toEqual([]);
    expect((await session.messages()).map((m) => m.content)).toEqual(['question 2', 'answer 2']);
  });

  it('an async plan() resolving to something else than a plan is refused like a sync one', async () => {
    const { engine, errors } = engineWith((async () => ({ action: 'explode' })) as never);
    const session = await converse(engine, 3);
    expectNamedError(errors, /returned an invalid plan/);
    expect((await session.messages()).filter(isSummaryMessage)).toEqual([]);
    expect((await session.history()).map((m) => m.content)).toEqual(turnTexts(3));
  });
});

describe('registration checks a strategy up front', () => {
  const refused = (strategy: unknown, field: string, message: RegExp) => {
    let caught: unknown;
    try {
      createMemoryEngine({ profile: {}, longTermStrategies: [strategy as LongTermStrategy] });
    } catch (error) {
      caught = error;
    }
    expect(MemError.hasCode(caught, 'MEM_VALIDATION'), 'a MemValidationError').toBe(true);
    expect((caught as { field: string }).field).toBe(field);
    expect((caught as Error).message).toMatch(message);
  };

  it('refuses a missing or non-function plan, and fields that are not zod schemas, naming the path', () => {
    refused({ id: 'no_plan' }, 'longTermStrategies[0].plan', /must be a function/);
    refused({ id: 'bad_plan', plan: 'erase' }, 'longTermStrategies[0].plan', /must be a function/);
    refused(
      { id: 'bad_field', plan: () => undefined, fields: { keep: 2 } },
      'longTermStrategies[0].fields.keep',
      /must be a zod schema \(e\.g\. z\.number\(\)\), got a number/,
    );
    refused(
      { id: 'ok_field', plan: () => undefined, fields: { keep: z.number(), name: 'x' } },
      'longTermStrategies[0].fields.name',
      /must be a zod schema/,
    );
  });
});
