import {
  type CountedMessage,
  MAX_JSON_DEPTH,
  MAX_MESSAGE_TOKENS,
  type Store,
} from '@mem/core/backend';
import { describe, expect, it } from 'vitest';
import {
  append,
  conversation,
  expectMemError,
  numbered,
  planCompaction,
  textMessage,
  uniqueId,
} from './fixtures.ts';
import { useStores } from './harness.ts';
import type { StoreFactory, StoreSuiteOptions } from './suite-options.ts';

/** The Store spec's limits (`@mem/core` store-limits.ts); every backend enforces the same. */
export const STORE_LIMITS = {
  /** Objects and arrays nest at most this deep in a message (64); `metadata` itself is level 1. */
  maxJsonDepth: MAX_JSON_DEPTH,
  /** Largest `tokenCount` of one message (100,000,000). */
  maxMessageTokens: MAX_MESSAGE_TOKENS,
} as const;

/** `{ a: { a: ... { a: leaf } } }` with `levels` objects. */
export function nested(levels: number, leaf: unknown = 'bottom'): unknown {
  let value = leaf;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

/** Rejects `batch` with MEM_VALIDATION on append and replace, and writes nothing. */
async function expectBatchRejected(store: Store, batch: unknown[], field: string): Promise<void> {
  const id = uniqueId('bounds');
  const existing = conversation(1);
  await append(store, id, existing);
  const messages = batch as CountedMessage[];
  await expectMemError(append(store, id, messages), 'MEM_VALIDATION', field);
  await expectMemError(store.replace(id, { messages }), 'MEM_VALIDATION', field);
  const fresh = uniqueId('bounds-new');
  await expectMemError(append(store, fresh, messages), 'MEM_VALIDATION', field);
  expect(await store.read(id)).toStrictEqual({
    version: 1,
    epoch: 0,
    messages: numbered(existing, 1),
  });
  expect(await store.info(fresh)).toBeNull();
}

/**
 * Input at the edges of what a store can hold exactly: identifiers that are not well-formed
 * UTF-16, deeply nested metadata, token counts that would make session sums unsafe, and
 * content of the wrong type. Each is stored exactly or rejected with MEM_VALIDATION naming the
 * field, never a raw error and never a silent change.
 */
export function inputBoundsTests(createStore: StoreFactory, options: StoreSuiteOptions = {}): void {
  describe('input bounds', () => {
    const stores = useStores(createStore, options);

    it('rejects idempotency keys that are not well-formed UTF-16, so two never collide', async () => {
      const store = await stores.open();
      const id = uniqueId('ill-formed-key');
      // The first halves of two different emoji (U+1F600, U+1F900): UTF-8 turns both into U+FFFD.
      for (const key of ['\ud83d', '\ud83e', 'key-\udc00', '\ud83d\ud83d']) {
        await expectMemError(
          store.append(id, conversation(1), { idempotencyKey: key }),
          'MEM_VALIDATION',
          'idempotencyKey',
        );
      }
      expect(await store.info(id)).toBeNull();
      // Well-formed keys that differ in one emoji stay two appends.
      const [a, b] = [conversation(1), conversation(1)];
      await store.append(id, a, { idempotencyKey: 'emoji-😀' });
      const second = await store.append(id, b, { idempotencyKey: 'emoji-🤀' });
      expect(second).toMatchObject({ duplicate: false, firstSeq: 2 });
      expect((await store.read(id)).messages).toStrictEqual(numbered([...a, ...b], 1));
      const keys = (await store.export(id))?.idempotencyKeys.map((k) => k.key);
      expect(keys).toStrictEqual(['emoji-😀', 'emoji-🤀']);
    });

    it('rejects message and summary ids that are not well-formed UTF-16', async () => {
      const store = await stores.open();
      await expectBatchRejected(
        store,
        [textMessage('ok'), textMessage('bad', { id: 'm\ud800' })],
        'messages[1].id',
      );
      const id = uniqueId('ill-formed-summary');
      await append(store, id, conversation(3));
      const plan = await planCompaction(store, id, 2, { id: 'summary-\udfff' });
      await expectMemError(store.compact(id, plan), 'MEM_VALIDATION', 'summary.id');
      expect((await store.read(id)).messages).toHaveLength(3);
    });

    it('never lets an ill-formed summary id find another summary (U+FFFD is not a wildcard)', async () => {
      const store = await stores.open();
      const id = uniqueId('fffd');
      await append(store, id, conversation(3));
      const plan = await planCompaction(store, id, 2, { id: 'summary-\ufffd' });
      await store.compact(id, plan);
      const originals = await store.archived(id, 'summary-\ufffd');
      expect(originals.map((m) => m.id)).toStrictEqual(plan.record.originalMessageIds);
      expect(await store.archived(id, 'summary-\ud800')).toStrictEqual([]);
      expect(await store.archived(id, 'summary-\udc00')).toStrictEqual([]);
    });

    it(`stores metadata nested ${STORE_LIMITS.maxJsonDepth} levels exactly and rejects one level more, naming the path`, async () => {
      const store = await stores.open();
      const id = uniqueId('deep');
      const deepest = { ...textMessage('deep'), metadata: nested(STORE_LIMITS.maxJsonDepth) };
      await append(store, id, [deepest as CountedMessage]);
      expect((await store.read(id)).messages).toStrictEqual(
        numbered([deepest as CountedMessage], 1),
      );
      const path = `messages[1].metadata${'.a'.repeat(STORE_LIMITS.maxJsonDepth)}`;
      const tooDeep = { ...textMessage('deeper'), metadata: nested(STORE_LIMITS.maxJsonDepth + 1) };
      await expectBatchRejected(store, [textMessage('ok'), tooDeep], path);
    });

    it.each([
      ['5,000 levels of objects', () => nested(5_000)],
      ['100,000 levels of arrays', () => nested(0, deepArray(100_000))],
    ])('rejects metadata nested %s with MEM_VALIDATION, never a RangeError', async (_, make) => {
      const store = await stores.open();
      const message = { ...textMessage('deep'), metadata: { x: make() } };
      const id = uniqueId('very-deep');
      const error = await expectMemError(append(store, id, [message]), 'MEM_VALIDATION');
      expect((error as { field?: string }).field).toMatch(/^messages\[0\]\.metadata\.x/);
      expect(error.message).toContain(String(STORE_LIMITS.maxJsonDepth));
      const fresh = uniqueId('very-deep-import');
      await append(store, fresh, conversation(1));
      const snapshot = (await store.export(fresh))!;
      const [first] = snapshot.messages;
      const bad = { ...snapshot, messages: [{ ...first!, metadata: { x: make() } }] };
      await expectMemError(store.import(bad), 'MEM_VALIDATION');
      expect(await store.export(fresh)).toStrictEqual(snapshot);
    });

    it(`rejects a tokenCount above ${STORE_LIMITS.maxMessageTokens.toLocaleString('en')}, so session sums stay exact`, async () => {
      const store = await stores.open();
      const max = STORE_LIMITS.maxMessageTokens;
      for (const tokenCount of [Number.MAX_SAFE_INTEGER, max + 1]) {
        const batch = [textMessage('ok'), textMessage('big', { tokenCount })];
        await expectBatchRejected(store, batch, 'messages[1].tokenCount');
      }
      const id = uniqueId('many-big');
      const big = () => textMessage('big', { tokenCount: Number.MAX_SAFE_INTEGER });
      for (let i = 0; i < 3; i++) {
        await expectMemError(
          append(store, id, [big()]),
          'MEM_VALIDATION',
          'messages[0].tokenCount',
        );
      }
      expect(await store.info(id)).toBeNull();
      const atCap = [textMessage('a', { tokenCount: max }), textMessage('b', { tokenCount: max })];
      await append(store, id, atCap);
      expect((await store.info(id))?.tokenCount).toBe(2 * max);
      const snapshot = (await store.export(id))!;
      expect(snapshot.info.tokenCount).toBe(2 * max);
      const plan = await planCompaction(store, id, 1, { tokenCount: max + 1 });
      await expectMemError(store.compact(id, plan), 'MEM_VALIDATION', 'summary.tokenCount');
    });

    it.each([
      ['numeric content', { content: 42 }, 'content'],
      ['null content on a user message', { content: null }, 'content'],
      ['no content', { content: undefined }, 'content'],
      ['toolCalls that are a string', { toolCalls: 'x' }, 'toolCalls'],
      [
        'null content on an assistant tool-call message (stored as "")',
        {
          role: 'assistant',
          content: null,
          toolCalls: [{ id: 'call-1', name: 'lookup', arguments: '{}' }],
        },
        'content',
      ],
    ])('rejects %s with MEM_VALIDATION naming the field', async (_, patch, field) => {
      const store = await stores.open();
      const bad: Record<string, unknown> = { ...textMessage('bad'), ...patch };
      if (bad.content === undefined) delete bad.content;
      await expectBatchRejected(store, [textMessage('ok'), bad], `messages[1].${field}`);
    });

    it('stores an assistant tool-call message with empty content exactly', async () => {
      const store = await stores.open();
      const id = uniqueId('tool-call');
      const call: CountedMessage = {
        ...textMessage('', { role: 'assistant' }),
        toolCalls: [{ id: 'call-1', name: 'lookup', arguments: '{"q":"x"}' }],
      };
      await append(store, id, [call]);
      expect((await store.read(id)).messages).toStrictEqual(numbered([call], 1));
    });
  });
}

function deepArray(levels: number): unknown {
  let value: unknown = [];
  for (let i = 0; i < levels; i++) value = [value];
  return value;
}
