import { MemError } from '@mem/core';
import { MAX_USER_FACT_LENGTH, MAX_USER_FACTS, type Store, type UserFact } from '@mem/core/backend';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BASE_TIME, expectMemError, uniqueId } from './fixtures.ts';
import { useStores } from './harness.ts';
import type { StoreFactory, StoreSuiteOptions } from './suite-options.ts';

let facts = 0;

/** A valid fact with a unique id; `fields` override any property. */
export function userFact(text: string, fields: Partial<UserFact> = {}): UserFact {
  facts += 1;
  return {
    id: uniqueId('fact'),
    text,
    sourceMessageIds: [],
    createdAt: BASE_TIME + facts,
    updatedAt: BASE_TIME + facts,
    ...fields,
  };
}

/**
 * Adds one fact by read-modify-write, re-reading and retrying on a conflict, as the fact
 * extractor does. Returns how many conflicts it met.
 */
export async function addFactWithRetry(store: Store, userId: string, fact: UserFact) {
  for (let conflicts = 0; conflicts < 10_000; conflicts++) {
    const { version, facts: current } = await store.userFacts(userId);
    try {
      await store.writeUserFacts(userId, { expectedVersion: version, facts: [...current, fact] });
      return conflicts;
    } catch (error) {
      if (!MemError.hasCode(error, 'MEM_STORE_CONFLICT')) throw error;
    }
  }
  throw new Error('writeUserFacts kept conflicting');
}

/** Ways to get a fact or a write wrong, with the path the error must name. */
const BAD_WRITES: ReadonlyArray<readonly [label: string, input: () => unknown, field: string]> = [
  ['no input', () => undefined, '(root)'],
  ['a negative expectedVersion', () => ({ expectedVersion: -1, facts: [] }), 'expectedVersion'],
  ['a fractional expectedVersion', () => ({ expectedVersion: 1.5, facts: [] }), 'expectedVersion'],
  ['a string expectedVersion', () => ({ expectedVersion: '0', facts: [] }), 'expectedVersion'],
  ['an unsafe expectedVersion', () => ({ expectedVersion: 2 ** 53, facts: [] }), 'expectedVersion'],
  ['no expectedVersion', () => ({ facts: [] }), 'expectedVersion'],
  ['facts not an array', () => ({ expectedVersion: 0, facts: {} }), 'facts'],
  [
    `${MAX_USER_FACTS + 1} facts`,
    () => ({
      expectedVersion: 0,
      facts: Array.from({ length: MAX_USER_FACTS + 1 }, (_, i) => userFact(`fact ${i}`)),
    }),
    'facts',
  ],
  ['a fact that is not an object', () => withFact(() => 'likes tea'), 'facts[1]'],
  ['an empty id', () => withFact((f) => ({ ...f, id: '' })), 'facts[1].id'],
  ['a 257-unit id', () => withFact((f) => ({ ...f, id: 'i'.repeat(257) })), 'facts[1].id'],
  ['an id with a lone surrogate', () => withFact((f) => ({ ...f, id: 'a\ud800' })), 'facts[1].id'],
  ['no text', () => withFact(({ text: _t, ...f }) => f), 'facts[1].text'],
  ['an empty text', () => withFact((f) => ({ ...f, text: '' })), 'facts[1].text'],
  ['a blank text', () => withFact((f) => ({ ...f, text: ' \n\t ' })), 'facts[1].text'],
  [
    `a text of ${MAX_USER_FACT_LENGTH + 1} units`,
    () => withFact((f) => ({ ...f, text: 't'.repeat(MAX_USER_FACT_LENGTH + 1) })),
    'facts[1].text',
  ],
  [
    'a text with a lone surrogate',
    () => withFact((f) => ({ ...f, text: 'x\udc00' })),
    'facts[1].text',
  ],
  ['an empty about', () => withFact((f) => ({ ...f, about: '' })), 'facts[1].about'],
  ['a 129-unit about', () => withFact((f) => ({ ...f, about: 'a'.repeat(129) })), 'facts[1].about'],
  [
    'a sessionId with a newline',
    () => withFact((f) => ({ ...f, sessionId: 'a\nb' })),
    'facts[1].sessionId',
  ],
  ['a numeric sessionId', () => withFact((f) => ({ ...f, sessionId: 7 })), 'facts[1].sessionId'],
  [
    'sourceMessageIds missing',
    () => withFact(({ sourceMessageIds: _s, ...f }) => f),
    'facts[1].sourceMessageIds',
  ],
  [
    'an empty source message id',
    () => withFact((f) => ({ ...f, sourceMessageIds: ['m1', ''] })),
    'facts[1].sourceMessageIds[1]',
  ],
  [
    '257 source message ids',
    () =>
      withFact((f) => ({ ...f, sourceMessageIds: Array.from({ length: 257 }, (_, i) => `m${i}`) })),
    'facts[1].sourceMessageIds',
  ],
  [
    'a NaN createdAt',
    () => withFact((f) => ({ ...f, createdAt: Number.NaN })),
    'facts[1].createdAt',
  ],
  [
    'an infinite updatedAt',
    () => withFact((f) => ({ ...f, updatedAt: Number.POSITIVE_INFINITY })),
    'facts[1].updatedAt',
  ],
  [
    'a string createdAt',
    () => withFact((f) => ({ ...f, createdAt: '2024' })),
    'facts[1].createdAt',
  ],
  ['a repeated id', () => withFact((f, first) => ({ ...f, id: first.id })), 'facts[1].id'],
];

/** A write of two facts whose second is `change(a valid fact, the first fact)`. */
function withFact(change: (fact: UserFact, first: UserFact) => unknown) {
  const first = userFact('first');
  return { expectedVersion: 0, facts: [first, change(userFact('second'), first)] };
}

/** Strings that are sometimes valid fact texts, ids or keys, and sometimes not. */
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
const anyText = fc.oneof(
  { weight: 5, arbitrary: fc.string({ unit: 'grapheme', minLength: 0, maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: codeUnit, maxLength: 12 }) },
  { weight: 1, arbitrary: fc.constantFrom('', ' ', '\t\n', 'x'.repeat(129), 'y'.repeat(257)) },
  { weight: 1, arbitrary: fc.constantFrom('z'.repeat(2_000), 'z'.repeat(2_001), '\ud83d', 'a\n') },
);
const anyFact = fc.record(
  {
    id: anyText,
    text: anyText,
    about: anyText,
    sessionId: anyText,
    sourceMessageIds: fc.array(anyText, { maxLength: 3 }),
    createdAt: fc.oneof(fc.double(), fc.integer()),
    updatedAt: fc.oneof(fc.double(), fc.integer()),
  },
  { requiredKeys: ['id', 'text', 'sourceMessageIds', 'createdAt', 'updatedAt'] },
);

const within = (text: string, min: number, max: number) =>
  text.length >= min && text.length <= max && text.isWellFormed();
// biome-ignore lint/suspicious/noControlCharactersInRegex: session ids exclude C0 controls and DEL
const isSessionId = (text: string) => within(text, 1, 512) && !/[\u0000-\u001f\u007f]/.test(text);

/** The spec's rules for one fact (see UserFact in store-spec.ts). */
function isValidFact(f: {
  id: string;
  text: string;
  about?: string;
  sessionId?: string;
  sourceMessageIds: string[];
  createdAt: number;
  updatedAt: number;
}): boolean {
  return (
    within(f.id, 1, 256) &&
    within(f.text, 1, MAX_USER_FACT_LENGTH) &&
    f.text.trim().length > 0 &&
    (f.about === undefined || within(f.about, 1, 128)) &&
    (f.sessionId === undefined || isSessionId(f.sessionId)) &&
    f.sourceMessageIds.every((id) => within(id, 1, 256)) &&
    Number.isFinite(f.createdAt) &&
    Number.isFinite(f.updatedAt)
  );
}

/**
 * User facts (Store v3): a small document per user, replaced whole with compare-and-swap on its
 * version, stored exactly, isolated per user and per namespace.
 */
export function userFactsTests(createStore: StoreFactory, options: StoreSuiteOptions = {}): void {
  describe('user facts', () => {
    const stores = useStores(createStore, options);

    it('reads a user without facts as version 0 with no facts', async () => {
      const store = await stores.open();
      const user = uniqueId('user');
      expect(await store.userFacts(user)).toStrictEqual({ userId: user, version: 0, facts: [] });
    });

    it('stores facts exactly, in the order written, unicode and optional fields included', async () => {
      const store = await stores.open();
      const user = uniqueId('usér 😀');
      const written: UserFact[] = [
        userFact('Lives in Lisbon', {
          about: 'location',
          sessionId: uniqueId('session'),
          sourceMessageIds: ['m-1', 'm-2'],
          createdAt: BASE_TIME + 0.5,
          updatedAt: BASE_TIME + 2_000.25,
        }),
        userFact('Spricht Deutsch; 日本語も少し; emoji 👨‍👩‍👧; e\u0301; \u2028 ok', {
          about: 'preference:language',
        }),
        userFact('"quoted", \\ back-slashed, {braced} and \'; DROP TABLE facts; --', {
          createdAt: -1,
          updatedAt: 0,
        }),
      ];
      expect(
        await store.writeUserFacts(user, { expectedVersion: 0, facts: written }),
      ).toStrictEqual({ version: 1 });
      expect(await store.userFacts(user)).toStrictEqual({
        userId: user,
        version: 1,
        facts: written,
      });
      const other = await stores.open(store.namespace);
      expect(await other.userFacts(user)).toStrictEqual({
        userId: user,
        version: 1,
        facts: written,
      });
    });

    it('accepts facts at the limits', async () => {
      const store = await stores.open();
      const user = uniqueId('limits');
      const written = Array.from({ length: MAX_USER_FACTS }, (_, i) =>
        userFact(`fact ${i}`, { id: `${i}`.padEnd(256, 'i') }),
      );
      written[0] = {
        ...written[0]!,
        text: 't'.repeat(MAX_USER_FACT_LENGTH),
        about: 'a'.repeat(128),
        sessionId: 's'.repeat(512),
        sourceMessageIds: Array.from({ length: 256 }, (_, i) => `${i}`.padEnd(256, 'm')),
      };
      await store.writeUserFacts(user, { expectedVersion: 0, facts: written });
      expect(await store.userFacts(user)).toStrictEqual({
        userId: user,
        version: 1,
        facts: written,
      });
    });

    it('never aliases the objects it was given or returned', async () => {
      const store = await stores.open();
      const user = uniqueId('alias');
      const fact = userFact('Likes tea', { sourceMessageIds: ['m-1'] });
      const expected = structuredClone(fact);
      await store.writeUserFacts(user, { expectedVersion: 0, facts: [fact] });
      fact.text = 'changed after the write';
      fact.sourceMessageIds.push('m-2');
      const read = await store.userFacts(user);
      expect(read.facts).toStrictEqual([expected]);
      read.facts[0]!.text = 'changed after the read';
      read.facts.push(userFact('pushed after the read'));
      expect((await store.userFacts(user)).facts).toStrictEqual([expected]);
    });

    it('refuses a write at a stale version with a conflict, and keeps the facts', async () => {
      const store = await stores.open();
      const user = uniqueId('stale');
      const first = [userFact('first')];
      const second = [userFact('second')];
      await store.writeUserFacts(user, { expectedVersion: 0, facts: first });
      expect(await store.writeUserFacts(user, { expectedVersion: 1, facts: second })).toStrictEqual(
        {
          version: 2,
        },
      );
      for (const expectedVersion of [0, 1, 3, 1_000]) {
        const error = await expectMemError(
          store.writeUserFacts(user, { expectedVersion, facts: [userFact('lost')] }),
          'MEM_STORE_CONFLICT',
        );
        expect(error).toMatchObject({ counter: 'version', expected: expectedVersion, actual: 2 });
      }
      expect(await store.userFacts(user)).toStrictEqual({
        userId: user,
        version: 2,
        facts: second,
      });
      // A user without facts is at version 0: any other version is stale too.
      const fresh = uniqueId('fresh');
      await expectMemError(
        store.writeUserFacts(fresh, { expectedVersion: 1, facts: [userFact('lost')] }),
        'MEM_STORE_CONFLICT',
      );
      expect(await store.userFacts(fresh)).toStrictEqual({ userId: fresh, version: 0, facts: [] });
    });

    it('loses no update when writers race with read-modify-write and retry (2 x 20 adds)', async () => {
      const namespace = (await stores.open()).namespace;
      const [one, two] = [await stores.open(namespace), await stores.open(namespace)];
      const user = uniqueId('racing');
      const writer = async (store: Store, label: string) => {
        let conflicts = 0;
        for (let i = 0; i < 20; i++) {
          conflicts += await addFactWithRetry(store, user, userFact(`${label} ${i}`));
        }
        return conflicts;
      };
      await Promise.all([writer(one, 'one'), writer(two, 'two')]);
      const { version, facts: stored } = await one.userFacts(user);
      expect(stored).toHaveLength(40);
      expect(new Set(stored.map((f) => f.text)).size).toBe(40);
      for (const label of ['one', 'two']) {
        // Each writer's facts are in its own order.
        const texts = stored.map((f) => f.text).filter((t) => t.startsWith(`${label} `));
        expect(texts).toStrictEqual(Array.from({ length: 20 }, (_, i) => `${label} ${i}`));
      }
      expect(version).toBe(40);
    }, 60_000);

    it('removes the document on an empty write, and the version keeps growing', async () => {
      const store = await stores.open();
      const user = uniqueId('emptied');
      await store.writeUserFacts(user, {
        expectedVersion: 0,
        facts: [userFact('a'), userFact('b')],
      });
      expect(await store.writeUserFacts(user, { expectedVersion: 1, facts: [] })).toStrictEqual({
        version: 2,
      });
      expect(await store.userFacts(user)).toStrictEqual({ userId: user, version: 2, facts: [] });
      // A writer that read before the removal (or before anything was written) must re-read.
      for (const expectedVersion of [0, 1]) {
        await expectMemError(
          store.writeUserFacts(user, { expectedVersion, facts: [userFact('stale')] }),
          'MEM_STORE_CONFLICT',
        );
      }
      const again = [userFact('again')];
      expect(await store.writeUserFacts(user, { expectedVersion: 2, facts: again })).toStrictEqual({
        version: 3,
      });
      expect(await store.userFacts(user)).toStrictEqual({ userId: user, version: 3, facts: again });
    });

    it("keeps each user's facts apart, and each namespace's", async () => {
      const [a, b] = [await stores.open(), await stores.open()];
      const [alice, bob] = [uniqueId('alice'), uniqueId('bob')];
      const ofAlice = [userFact('Alice likes tea')];
      const ofBob = [userFact('Bob likes coffee')];
      await a.writeUserFacts(alice, { expectedVersion: 0, facts: ofAlice });
      await a.writeUserFacts(bob, { expectedVersion: 0, facts: ofBob });
      expect(await a.userFacts(alice)).toStrictEqual({ userId: alice, version: 1, facts: ofAlice });
      expect(await a.userFacts(bob)).toStrictEqual({ userId: bob, version: 1, facts: ofBob });
      expect(await b.userFacts(alice)).toStrictEqual({ userId: alice, version: 0, facts: [] });
      const inB = [userFact('Alice of tenant B')];
      await b.writeUserFacts(alice, { expectedVersion: 0, facts: inB });
      expect((await a.userFacts(alice)).facts).toStrictEqual(ofAlice);
      expect((await b.userFacts(alice)).facts).toStrictEqual(inB);
    });

    it('refuses bad input naming the path, and writes nothing', async () => {
      const store = await stores.open();
      const user = uniqueId('bad-input');
      const kept = [userFact('kept')];
      await store.writeUserFacts(user, { expectedVersion: 0, facts: kept });
      const fresh = uniqueId('fresh');
      for (const [label, input, field] of BAD_WRITES) {
        const made = input() as { expectedVersion?: unknown } | undefined;
        // Aim at the current version, so only the bad field can be the reason.
        const atOne = made?.expectedVersion === 0 ? { ...made, expectedVersion: 1 } : made;
        const error = await expectMemError(
          store.writeUserFacts(user, atOne as never),
          'MEM_VALIDATION',
        ).catch((cause: unknown) => {
          throw new Error(`${label}: ${String(cause)}`, { cause });
        });
        expect((error as MemError & { field: string }).field, label).toBe(field);
        await expectMemError(store.writeUserFacts(fresh, made as never), 'MEM_VALIDATION', field);
      }
      expect(await store.userFacts(user)).toStrictEqual({ userId: user, version: 1, facts: kept });
      expect(await store.userFacts(fresh)).toStrictEqual({ userId: fresh, version: 0, facts: [] });
      for (const userId of ['', 'a\ud800', 'tab\there', 'u'.repeat(513), 5, undefined]) {
        await expectMemError(store.userFacts(userId as never), 'MEM_VALIDATION', 'userId');
        await expectMemError(
          store.writeUserFacts(userId as never, { expectedVersion: 0, facts: [] }),
          'MEM_VALIDATION',
          'userId',
        );
      }
    });

    it('stores any fact the spec accepts exactly and refuses any other (fast-check, 100 runs)', async () => {
      const store = await stores.open();
      const user = uniqueId('property');
      let accepted = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(anyFact, { maxLength: 3 }), async (candidates) => {
          const before = await store.userFacts(user);
          // Unique ids unless the generator repeats one on purpose (that is refused).
          const input = { expectedVersion: before.version, facts: candidates };
          const valid =
            candidates.every(isValidFact) &&
            new Set(candidates.map((f) => f.id)).size === candidates.length;
          const outcome = await store.writeUserFacts(user, input).then(
            (value) => ({ ok: true as const, value }),
            (error: unknown) => ({ ok: false as const, error }),
          );
          if (!valid) {
            expect(outcome.ok, `accepted ${JSON.stringify(candidates)}`).toBe(false);
            const { error } = outcome as { error: unknown };
            expect(MemError.hasCode(error, 'MEM_VALIDATION'), String(error)).toBe(true);
            expect(String((error as { field?: unknown }).field)).toMatch(/^facts\[\d+\]/);
            expect(await store.userFacts(user)).toStrictEqual(before);
            return;
          }
          if (!outcome.ok) throw outcome.error;
          accepted += 1;
          expect(await store.userFacts(user)).toStrictEqual({
            userId: user,
            version: before.version + 1,
            // As JSON: -0 is stored as 0, like everywhere in a store.
            facts: JSON.parse(JSON.stringify(candidates)),
          });
        }),
        { numRuns: 100 },
      );
      expect(accepted).toBeGreaterThanOrEqual(10);
    }, 120_000);
  });
}
