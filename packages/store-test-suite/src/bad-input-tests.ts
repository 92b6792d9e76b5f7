import type { CountedMessage, SessionSnapshot, Store } from '@mem/core/backend';
import { describe, expect, it } from 'vitest';
import {
  append,
  conversation,
  expectMemError,
  listAll,
  numbered,
  planCompaction,
  textMessage,
  uniqueId,
} from './fixtures.ts';
import { useStores } from './harness.ts';
import type { StoreFactory, StoreSuiteOptions } from './suite-options.ts';

/** Session ids every store must reject. */
export const INVALID_SESSION_IDS: ReadonlyArray<readonly [label: string, id: unknown]> = [
  ['empty', ''],
  ['10 kB long', 'x'.repeat(10_000)],
  ['513 code units', 'x'.repeat(513)],
  ['a lone high surrogate', 'a\ud800b'],
  ['a lone low surrogate', '\udc00'],
  ['NUL', 'a\u0000b'],
  ['a newline', 'line\nbreak'],
  ['an escape sequence', '\u001b[31mred'],
  ['DEL', '\u007f'],
  ['a number', 42],
  ['undefined', undefined],
];

/** Odd but valid session ids: stored and read back exactly, never touching another session. */
export const ODD_SESSION_IDS: readonly string[] = [
  '*',
  '?',
  '[x]',
  'a*b?c',
  '{a}',
  '{',
  '}',
  'a:b',
  '"quoted"',
  "it's",
  "'; DROP TABLE sessions; --",
  '%',
  '%s%n',
  '_',
  '..',
  '../x',
  '/',
  'a/b',
  '\\',
  ' ',
  ' padded ',
  '😀',
  '👨‍👩‍👧',
  '日本語',
  'e\u0301',
  '\u00e9',
  'A',
  'a',
  '\u2028',
  '\u0085',
  '\u00a0',
  'x'.repeat(512),
];

type BadMessage = [label: string, make: () => unknown];

const withField =
  (field: string, value: unknown): (() => unknown) =>
  () => ({
    ...textMessage('bad'),
    [field]: value,
  });
const without = (field: string) => () => {
  const message: Record<string, unknown> = { ...textMessage('bad') };
  delete message[field];
  return message;
};
const cyclic = () => {
  const metadata: Record<string, unknown> = {};
  metadata.self = metadata;
  return { ...textMessage('bad'), metadata };
};

/** Messages every store must reject with MEM_VALIDATION. */
export const INVALID_MESSAGES: readonly BadMessage[] = [
  ['no tokenCount', without('tokenCount')],
  ['a negative tokenCount', withField('tokenCount', -1)],
  ['a fractional tokenCount', withField('tokenCount', 1.5)],
  ['a NaN tokenCount', withField('tokenCount', Number.NaN)],
  ['a string tokenCount', withField('tokenCount', '3')],
  ['an unknown role', withField('role', 'bot')],
  ['no id', without('id')],
  ['an empty id', withField('id', '')],
  ['a 257-character id', withField('id', 'i'.repeat(257))],
  ['a numeric id', withField('id', 42)],
  ['numeric content', withField('content', 42)],
  ['null content', withField('content', null)],
  ['an unknown content part', withField('content', [{ type: 'video', url: 'x' }])],
  ['a text part without text', withField('content', [{ type: 'text' }])],
  ['no createdAt', without('createdAt')],
  ['an infinite createdAt', withField('createdAt', Number.POSITIVE_INFINITY)],
  ['a string createdAt', withField('createdAt', '2024-01-01')],
  ['a tool call without a name', withField('toolCalls', [{ id: 'c', arguments: '{}' }])],
  ['string metadata', withField('metadata', 'meta')],
  ['array metadata', withField('metadata', [1, 2])],
  ['a Date in metadata', withField('metadata', { when: new Date(0) })],
  ['a Map in metadata', withField('metadata', { map: new Map() })],
  ['a function in metadata', withField('metadata', { f: () => 1 })],
  ['NaN in metadata', withField('metadata', { n: Number.NaN })],
  ['Infinity in metadata', withField('metadata', { n: Number.POSITIVE_INFINITY })],
  ['a bigint in metadata', withField('metadata', { n: 10n })],
  ['undefined inside a metadata array', withField('metadata', { list: [1, undefined] })],
  ['a cycle in metadata', cyclic],
  [
    'a provider part holding a Date',
    withField('content', [{ type: 'provider', format: 'openai', value: new Date(0) }]),
  ],
  ['null', () => null],
  ['a string', () => 'hello'],
];

/** A call of every method with `sessionId`, given a snapshot to import under that id. */
function everyMethod(
  store: Store,
  sessionId: string,
  snapshot: SessionSnapshot,
  summary: CountedMessage,
) {
  const record = {
    id: summary.id,
    originalMessageIds: ['m'],
    fromSeq: 1,
    throughSeq: 1,
    originalTokenCount: 1,
    tokenCount: 1,
    compressionRatio: 1,
    timeRange: { start: 0, end: 0 },
    createdAt: 0,
  };
  return {
    append: () => store.append(sessionId, conversation(1), { idempotencyKey: 'k' }),
    read: () => store.read(sessionId),
    info: () => store.info(sessionId),
    compact: () => store.compact(sessionId, { expectedEpoch: 0, throughSeq: 1, summary, record }),
    erase: () => store.erase(sessionId, { expectedEpoch: 0, throughSeq: 1 }),
    replace: () => store.replace(sessionId, { messages: conversation(1) }),
    clear: () => store.clear(sessionId),
    summaries: () => store.summaries(sessionId),
    archived: () => store.archived(sessionId, summary.id),
    export: () => store.export(sessionId),
    import: () =>
      store.import({ ...snapshot, sessionId, info: { ...snapshot.info, id: sessionId } }),
  };
}

/** Bad input fails with MEM_VALIDATION and writes nothing; odd but valid ids are just data. */
export function badInputTests(createStore: StoreFactory, options: StoreSuiteOptions = {}): void {
  describe('bad input', () => {
    const stores = useStores(createStore, options);

    it.each(INVALID_SESSION_IDS)(
      'rejects a session id that is %s, in every method',
      async (_, bad) => {
        const store = await stores.open();
        const donor = uniqueId('donor');
        await append(store, donor, conversation(1));
        const snapshot = (await store.export(donor))!;
        const summary = (await planCompaction(store, donor, 1)).summary;
        for (const [method, call] of Object.entries(
          everyMethod(store, bad as string, snapshot, summary),
        )) {
          const error = await expectMemError(call(), 'MEM_VALIDATION');
          if (method !== 'import')
            expect((error as { field?: unknown }).field, method).toBe('sessionId');
        }
        expect((await store.list()).sessionIds).toStrictEqual([donor]);
        expect(await store.export(donor)).toStrictEqual(snapshot);
      },
    );

    it('stores odd but valid session ids exactly, each its own session', async () => {
      const store = await stores.open();
      const written = new Map<string, CountedMessage>();
      for (const id of ODD_SESSION_IDS) {
        const message = textMessage(`for ${JSON.stringify(id)}`);
        written.set(id, message);
        expect(await append(store, id, [message])).toMatchObject({ firstSeq: 1, version: 1 });
      }
      const listed = (await listAll(store, 10)).flat();
      expect(listed.sort()).toStrictEqual([...ODD_SESSION_IDS].sort());
      for (const [id, message] of written) {
        expect((await store.read(id)).messages, JSON.stringify(id)).toStrictEqual(
          numbered([message], 1),
        );
        expect((await store.info(id))?.id).toBe(id);
        expect((await store.export(id))?.sessionId).toBe(id);
      }
      const patterns = ['*', '?', '[x]', '{a}', '%', '..', '/'];
      for (const id of patterns) expect(await store.clear(id)).toBe(true);
      for (const [id, message] of written) {
        if (patterns.includes(id)) continue;
        expect((await store.read(id)).messages, JSON.stringify(id)).toStrictEqual(
          numbered([message], 1),
        );
      }
      expect((await listAll(store)).flat()).toHaveLength(ODD_SESSION_IDS.length - patterns.length);
    });

    it.each(INVALID_MESSAGES)('rejects a batch holding %s, writing nothing', async (_, make) => {
      const store = await stores.open();
      const id = uniqueId('bad-message');
      const existing = conversation(1);
      await append(store, id, existing);
      const batch = [textMessage('ok'), make(), textMessage('ok too')] as CountedMessage[];
      await expectMemError(append(store, id, batch), 'MEM_VALIDATION');
      await expectMemError(store.replace(id, { messages: batch }), 'MEM_VALIDATION');
      const fresh = uniqueId('bad-message-new');
      await expectMemError(append(store, fresh, batch), 'MEM_VALIDATION');
      expect(await store.read(id)).toStrictEqual({
        version: 1,
        epoch: 0,
        messages: numbered(existing, 1),
      });
      expect(await store.info(fresh)).toBeNull();
    });

    it('rejects malformed arguments of every operation, changing nothing', async () => {
      const store = await stores.open();
      const id = uniqueId('bad-args');
      await append(store, id, conversation(3));
      const before = await store.export(id);
      const anyStore = store as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
      const calls: Array<[string, unknown[]]> = [
        ['append', [id, 'not an array', { idempotencyKey: 'k' }]],
        ['append', [id, conversation(1), { idempotencyKey: '' }]],
        ['append', [id, conversation(1), {}]],
        ['append', [id, conversation(1), undefined]],
        ['append', [id, conversation(1), { idempotencyKey: 7 }]],
        ['read', [id, { limit: -1 }]],
        ['read', [id, { limit: 1.5 }]],
        ['read', [id, { afterSeq: -1 }]],
        ['read', [id, { from: 'middle' }]],
        ['compact', [id, null]],
        ['compact', [id, { expectedEpoch: 0, throughSeq: 1 }]],
        ['erase', [id, { expectedEpoch: 0, throughSeq: 0 }]],
        ['erase', [id, { expectedEpoch: -1, throughSeq: 1 }]],
        ['erase', [id, undefined]],
        ['replace', [id, { messages: 'nope' }]],
        ['replace', [id, { expectedVersion: -1, messages: [] }]],
        ['replace', [id, null]],
        ['import', [{ format: 'mem.session.v1', sessionId: id }]],
      ];
      for (const [method, args] of calls) {
        const call = anyStore[method]!.apply(store, args);
        await expectMemError(call, 'MEM_VALIDATION');
      }
      expect(await store.export(id)).toStrictEqual(before);
    });
  });
}
