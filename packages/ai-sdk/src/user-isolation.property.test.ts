import { createMemoryEngine, type Store } from '@mem/core';
import { generateText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { USER_PROFILE } from './__fixtures__/middleware-spec-users.ts';
import { textResult } from './__fixtures__/model-results.ts';
import { storeKinds } from './__fixtures__/sdk-under-test.ts';
import { memoryMiddleware } from './index.ts';

/** Wall time per backend after which fast-check starts no new run. */
const TIME_LIMIT_MS = 40_000;

/** The word in every marker of each user: user 0 says `alpha<code>`, user 1 `bravo<code>`. */
const WORDS = ['alpha', 'bravo'] as const;
const USERS = ['ana', 'ben'] as const;
/** The same words as every statement below: a search that crossed users would find the other's. */
const QUESTION =
  'What is my name, my project code word, where do I live and what is my favourite colour?';

type Statement = 'note' | 'name' | 'home' | 'colour';
type Step =
  | { kind: 'say'; user: 0 | 1; session: 0 | 1; statement: Statement }
  | { kind: 'ask'; user: 0 | 1 }
  | { kind: 'forget'; user: 0 | 1 };

const who = fc.constantFrom<0 | 1>(0, 1);
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('say' as const),
      user: who,
      session: fc.constantFrom<0 | 1>(0, 1),
      statement: fc.constantFrom<Statement>('note', 'name', 'home', 'colour'),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('ask' as const), user: who }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('forget' as const), user: who }) },
);
const stepsArb = fc.array(stepArb, { minLength: 6, maxLength: 14 });

/** Three letters for `n`: markers all have one length, so none is the start of another. */
const code = (n: number) =>
  [676, 26, 1].map((d) => String.fromCharCode(97 + (Math.floor(n / d) % 26))).join('');

/** What a user says: a marker in a sentence, some of which the rules extractor learns as facts. */
function sentence(statement: Statement, marker: string): string {
  const Marker = marker[0]!.toUpperCase() + marker.slice(1);
  if (statement === 'name') return `My name is ${Marker}.`;
  if (statement === 'home') return `I live in ${Marker}ville.`;
  if (statement === 'colour') return `My favourite colour is ${marker} teal.`;
  return `Note this: my project code word is ${marker}, keep it safe.`;
}

/*
 * The isolation property through the adapter (SPEC §6, users): two users with two conversations
 * each take random turns that carry their own marker words (some learnt as facts), ask the same
 * question in a new conversation (its words match both users' statements, so a search that crossed
 * users would find the other's), and are sometimes forgotten. Every prompt the model receives
 * holds no word of the other user, and after forgetUser none of the user's forgotten words; every
 * facts read likewise. Across the runs, those questions did bring the user's own earlier words.
 */
for (const [storeName, createStore] of storeKinds()) {
  describe(`memoryMiddleware({ userId }) with ai 6 (LanguageModelV3), on ${storeName}`, () => {
    const numRuns = /Redis/.test(storeName) ? 8 : 15;
    it("isolation through memoryMiddleware: no text of one user reaches another user's prompt (property)", async () => {
      let runs = 0;
      /** Questions in a new conversation that received one of the user's own markers. */
      let recalled = 0;
      await fc.assert(
        fc.asyncProperty(stepsArb, async (steps) => {
          runs++;
          const store: Store = createStore();
          const engine = createMemoryEngine({ store, profile: USER_PROFILE });
          const errors: unknown[] = [];
          const offs = [
            engine.on('facts:error', (x) => errors.push(x.error)),
            engine.on('knowledge:error', (x) => errors.push(x.error)),
          ];
          const model = new MockLanguageModelV3({ doGenerate: textResult('Noted.') });
          /** One call of `user` in conversation `sessionId`; every text the model received. */
          const call = async (user: 0 | 1, sessionId: string, text: string) => {
            const calls = model.doGenerateCalls.length;
            await generateText({
              model: wrapLanguageModel({
                model,
                middleware: memoryMiddleware({ engine, sessionId, userId: USERS[user] }),
              }),
              prompt: text,
            });
            expect(model.doGenerateCalls).toHaveLength(calls + 1);
            return JSON.stringify(model.doGenerateCalls.at(-1)?.prompt).toLowerCase();
          };
          /** Markers each user said since their last forgetUser, and before it. */
          const live: string[][] = [[], []];
          const forgotten: string[][] = [[], []];
          let n = 0;
          try {
            for (const step of steps) {
              const u = step.user;
              if (step.kind === 'forget') {
                await engine.forgetUser(USERS[u]);
                forgotten[u]!.push(...live[u]!.splice(0));
              } else {
                let prompt: string;
                if (step.kind === 'say') {
                  const marker = `${WORDS[u]}${code(n++)}`;
                  prompt = await call(
                    u,
                    `${USERS[u]}-${step.session}`,
                    sentence(step.statement, marker),
                  );
                  live[u]!.push(marker);
                } else {
                  prompt = await call(u, `${USERS[u]}-question-${n++}`, QUESTION);
                  if (live[u]!.some((m) => prompt.includes(m))) recalled++;
                }
                expect(prompt).not.toContain(WORDS[1 - u]);
                for (const marker of forgotten[u]!) expect(prompt).not.toContain(marker);
              }
              await engine.idle();
              for (const v of [0, 1] as const) {
                const facts = JSON.stringify(await engine.user(USERS[v]).facts()).toLowerCase();
                expect(facts).not.toContain(WORDS[1 - v]);
                for (const marker of forgotten[v]!) expect(facts).not.toContain(marker);
              }
            }
            expect(errors).toEqual([]);
          } finally {
            for (const off of offs) off();
            await engine.idle();
          }
        }),
        { numRuns, interruptAfterTimeLimit: TIME_LIMIT_MS, markInterruptAsFailure: false },
      );
      expect(runs).toBeGreaterThan(0);
      // Not vacuous: the same questions did bring the asking user's own earlier words.
      expect(recalled).toBeGreaterThan(0);
    }, 120_000);
  });
}
