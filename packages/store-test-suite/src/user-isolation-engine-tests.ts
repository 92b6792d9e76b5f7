import type { MemoryEngine } from '@mem/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EnginePlaceFactory } from './engine-place.ts';
import { connections, USER_COLLECTION } from './user-memory-fixtures.ts';

/** Runs per backend, and the wall time after which fast-check stops starting new ones. */
const RUNS = 25;
const TIME_LIMIT_MS = 60_000;

/** The words that mark each user's text: user 0 says `alpha<n>`, user 1 `bravo<n>`. */
const MARKERS = ['alpha', 'bravo'] as const;
const QUESTION = { role: 'user' as const, content: 'Tell me again what I like, noted please.' };

type Step =
  | { kind: 'append'; user: number; session: number; n: number; fact: boolean }
  | { kind: 'summarize'; user: number; session: number }
  | { kind: 'compact'; user: number; session: number }
  | { kind: 'setFact'; user: number; n: number }
  | { kind: 'forgetFact'; user: number };

const who = fc.integer({ min: 0, max: 1 });
const where = fc.integer({ min: 0, max: 2 });
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('append' as const),
      user: who,
      session: where,
      n: fc.nat(999),
      fact: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('summarize' as const), user: who, session: where }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('compact' as const), user: who, session: where }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('setFact' as const), user: who, n: fc.nat(999) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('forgetFact' as const), user: who }) },
);
/** A step is 1-3 actions started together: their store and background work interleave. */
const stepsArb = fc.array(fc.array(stepArb, { minLength: 1, maxLength: 3 }), {
  minLength: 3,
  maxLength: 10,
});

/**
 * The isolation property on a backend: two users, each with three sessions, do random
 * interleavings of appends (which extract facts in the background), summaries, forced compactions
 * (summary, then neuralyzer erasure), and fact updates through the API. After every step, every
 * context of a session of one user, every knowledge search by that user and every read of that
 * user's facts holds no marker word of the other user. Run by `runEngineTests`.
 */
export function userIsolationEngineTests(name: string, createPlace: EnginePlaceFactory): void {
  describe(`user isolation on ${name}`, () => {
    it(
      "isolation: no text of one user reaches another user's context, search or facts (property)",
      async () => {
        const place = connections(await createPlace('user-isolation'));
        // Two engines on two connections: the users' calls go through both.
        const engines: MemoryEngine[] = [place.engine(), place.engine()];
        const { kb } = place.open();
        let run = 0;
        try {
          await fc.assert(
            fc.asyncProperty(stepsArb, async (steps) => {
              run++;
              const users = [`r${run}-ana`, `r${run}-bob`];
              const sessionId = (user: number, session: number) => `r${run}-u${user}-s${session}`;
              // Failures that would make the check pass by hiding memory: none may happen.
              const errors: unknown[] = [];
              const offs = engines.flatMap((e) => [
                e.on('facts:error', (x) => errors.push(x.error)),
                e.on('knowledge:error', (x) => errors.push(x.error)),
              ]);
              const act = async (step: Step, i: number): Promise<void> => {
                const engine = engines[i % 2]!;
                const word = MARKERS[step.user]!;
                const user = users[step.user]!;
                if (step.kind === 'setFact') {
                  await engine.user(user).setFact({ text: `Fact ${word}${step.n}.` });
                  return;
                }
                if (step.kind === 'forgetFact') {
                  const [first] = await engine.user(user).facts();
                  if (first !== undefined) await engine.user(user).forgetFact(first.id);
                  return;
                }
                const session = engine.session(sessionId(step.user, step.session), {
                  userId: user,
                });
                if (step.kind === 'append') {
                  const said = step.fact
                    ? `remember thing${step.n % 3}: Likes ${word}${step.n}.`
                    : `Tell me about ${word}${step.n} please.`;
                  await session.append({ role: 'user', content: said });
                  await session.context();
                  await session.append({
                    role: 'assistant',
                    content: `About ${word}${step.n}: noted.`,
                  });
                } else if (step.kind === 'summarize') {
                  await session.summarizeNow({ keepInteractions: 1 });
                } else {
                  await session.compact({ force: true });
                }
              };
              const check = async (): Promise<void> => {
                for (let u = 0; u < 2; u++) {
                  const other = MARKERS[1 - u]!;
                  for (let s = 0; s < 3; s++) {
                    for (const engine of engines) {
                      const session = engine.session(sessionId(u, s), { userId: users[u]! });
                      // Words both users say: a search that crossed users would find the other's.
                      const context = await session.context({ next: QUESTION });
                      expect(JSON.stringify(context.messages)).not.toContain(other);
                    }
                  }
                  const hits = await kb.search(USER_COLLECTION, `${other}1 likes noted about`, {
                    topK: 50,
                    userId: users[u]!,
                  });
                  expect(JSON.stringify(hits)).not.toContain(other);
                  const facts = await engines[u]!.user(users[u]!).facts();
                  expect(JSON.stringify(facts)).not.toContain(other);
                }
              };
              try {
                for (const step of steps) {
                  await Promise.all(step.map(act));
                  await check();
                }
                await Promise.all(engines.map((e) => e.idle()));
                await check();
                expect(errors).toEqual([]);
              } finally {
                for (const off of offs) off();
              }
            }),
            {
              numRuns: RUNS,
              interruptAfterTimeLimit: TIME_LIMIT_MS,
              markInterruptAsFailure: false,
            },
          );
        } finally {
          await Promise.all(engines.map((e) => e.idle()));
          await place.close();
        }
        expect(run).toBeGreaterThan(0);
      },
      TIME_LIMIT_MS * 2,
    );
  });
}
