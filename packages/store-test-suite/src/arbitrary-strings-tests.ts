import { MemError } from '@mem/core';
import type { CountedMessage, Store } from '@mem/core/backend';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BASE_TIME, numbered, uniqueId } from './fixtures.ts';
import { useStores } from './harness.ts';
import { nested, STORE_LIMITS } from './input-bounds-tests.ts';
import type { StoreFactory, StoreSuiteOptions } from './suite-options.ts';

/** Runs of the property; each is a handful of round trips, so a server backend stays fast. */
const RUNS = 120;

/** Any UTF-16 code unit, lone surrogates and NUL included. */
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
const loneSurrogate = fc.constantFrom('\ud800', '\udbff', '\udc00', '\udfff', '\ud83d');
const trickyText = fc.constantFrom(
  '\u0000',
  '😀',
  '\n',
  '\u007f',
  '"',
  '\\',
  '{',
  '}',
  '*',
  ':',
  '__proto__',
  'e\u0301',
);
const tricky = fc.oneof(loneSurrogate, trickyText);
const small = fc.string({ unit: fc.oneof(codeUnit, tricky, fc.constantFrom('a', 'b', '1')) });
/** Strings of every kind: short hostile ones, and now and then a huge one. */
const anyString = fc.oneof(
  { weight: 8, arbitrary: small },
  { weight: 1, arbitrary: fc.constantFrom('', 'x'.repeat(256), 'x'.repeat(257), 'k'.repeat(513)) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(small, fc.integer({ min: 1_000, max: 200_000 }))
      .map(([s, n]) => `${s}${'\ud83d'.repeat(n % 7)}${'x'.repeat(n)}${s}`),
  },
);
/** Well-formed text (any code point, NUL and controls included), so many runs get accepted. */
const wellFormed = fc.string({
  unit: fc.oneof(fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }), trickyText),
  minLength: 1,
});
/** Identifiers: mostly well-formed, sometimes anything. */
const anyId = fc.oneof({ weight: 4, arbitrary: wellFormed }, { weight: 1, arbitrary: anyString });
/** Levels of objects under a metadata key: shallow, at the limit, past it, and very deep. */
const depth = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0, max: 8 }) },
  { weight: 2, arbitrary: fc.constantFrom(62, 63, 64, 65) },
  { weight: 1, arbitrary: fc.constantFrom(500, 4_000) },
);
const input = fc.record({
  sessionId: fc.oneof(fc.string({ unit: 'binary', minLength: 1 }), anyId),
  messageId: anyId,
  key: anyId,
  content: fc.oneof(
    anyString,
    anyString.map((text) => [{ type: 'text' as const, text }]),
  ),
  metaKey: anyString,
  metaValue: anyString,
  depth,
});
type Input = typeof input extends fc.Arbitrary<infer T> ? T : never;

/** Identifiers a store indexes: 1..max code units of well-formed Unicode. */
function isIdentifier(text: string, max: number): boolean {
  return text.length >= 1 && text.length <= max && text.isWellFormed();
}

/** A valid session id: an identifier of at most 512 units without C0 controls or DEL. */
function isSessionId(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return false;
  }
  return isIdentifier(text, 512);
}

/** The Store spec's rules for this input (see store-spec.ts): accepted, or MEM_VALIDATION. */
function isAcceptable(sessionId: string, i: Input): boolean {
  return (
    isSessionId(sessionId) &&
    isIdentifier(i.messageId, 256) &&
    isIdentifier(i.key, 512) &&
    // metadata is level 1, the object under metaKey level 2, ...
    1 + i.depth <= STORE_LIMITS.maxJsonDepth
  );
}

async function outcome(promise: Promise<unknown>) {
  return promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
}

/**
 * A fast-check property over arbitrary strings (lone surrogates, NUL, huge, deeply nested) as
 * session ids, message ids, idempotency keys, content and metadata: through every store, each
 * append round-trips exactly (read, export, import, a retry) or is rejected with MEM_VALIDATION
 * and writes nothing. Never a raw error, never a silent change.
 */
export function arbitraryStringTests(
  createStore: StoreFactory,
  options: StoreSuiteOptions = {},
): void {
  describe('arbitrary strings', () => {
    const stores = useStores(createStore, options);

    it(`round-trips any id, key, content and metadata exactly or rejects it (${RUNS} runs)`, async () => {
      const store = await stores.open();
      const other = await stores.open();
      let accepted = 0;
      await fc.assert(
        fc.asyncProperty(input, async (i) => {
          // A unique prefix keeps runs apart; the generated part is still arbitrary.
          const sessionId = `${uniqueId('p')}${i.sessionId}`;
          const message = {
            id: i.messageId,
            role: 'user',
            content: i.content,
            createdAt: BASE_TIME,
            tokenCount: 1,
            metadata: { [i.metaKey]: nested(i.depth, i.metaValue) },
          } as CountedMessage;
          const appended = await outcome(
            store.append(sessionId, [message], { idempotencyKey: i.key }),
          );
          if (!isAcceptable(sessionId, i)) {
            expectValidationError(appended);
            if (isSessionId(sessionId)) expect(await store.info(sessionId)).toBeNull();
            return;
          }
          if (!appended.ok) throw appended.error;
          accepted += 1;
          expect(appended.value).toMatchObject({ duplicate: false, firstSeq: 1 });
          await expectExact(store, sessionId, message, i.key);
          const retry = await store.append(sessionId, [message], { idempotencyKey: i.key });
          expect(retry).toStrictEqual({ ...(appended.value as object), duplicate: true });
          const snapshot = (await store.export(sessionId))!;
          await other.import(snapshot);
          expect(await other.export(sessionId)).toStrictEqual(snapshot);
          await expectExact(other, sessionId, message, i.key);
          expect(await store.clear(sessionId)).toBe(true);
          expect(await other.clear(sessionId)).toBe(true);
        }),
        { numRuns: RUNS },
      );
      // The generators lean to valid input, so most runs reach the round trip.
      expect(accepted).toBeGreaterThanOrEqual(RUNS / 10);
    }, 120_000);
  });
}

function expectValidationError(result: { ok: boolean; error?: unknown }): void {
  expect(result.ok, 'the store accepted input the spec rejects').toBe(false);
  const { error } = result;
  expect(MemError.isInstance(error), `expected a MemError, got ${String(error)}`).toBe(true);
  expect((error as MemError).code, (error as Error).message).toBe('MEM_VALIDATION');
}

async function expectExact(
  store: Store,
  sessionId: string,
  message: CountedMessage,
  key: string,
): Promise<void> {
  expect((await store.read(sessionId)).messages).toStrictEqual(numbered([message], 1));
  expect((await store.info(sessionId))?.id).toBe(sessionId);
  const snapshot = await store.export(sessionId);
  expect(snapshot?.sessionId).toBe(sessionId);
  expect(snapshot?.idempotencyKeys.map((k) => k.key)).toStrictEqual([key]);
  expect((await store.list()).sessionIds).toContain(sessionId);
}
