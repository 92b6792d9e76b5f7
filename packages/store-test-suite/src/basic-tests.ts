import type { CountedMessage } from '@mem/core/backend';
import { storeProblem } from '@mem/core/backend';
import { describe, expect, it } from 'vitest';
import {
  append,
  BASE_TIME,
  conversation,
  expectMemError,
  numbered,
  sumTokens,
  textMessage,
  uniqueId,
} from './fixtures.ts';
import { freshNamespace, useStores } from './harness.ts';
import type { StoreFactory, StoreSuiteOptions } from './suite-options.ts';

/** Every field of the Message model, parts of every kind, and text that is hard to store. */
export function richMessages(): CountedMessage[] {
  return [
    {
      id: uniqueId('rich-user'),
      role: 'user',
      content: [
        {
          type: 'text',
          text: 'Héllo wörld — 你好, мир, مرحبا, שלום 👋🏽 👨‍👩‍👧 e\u0301 \u{1F600}',
        },
        {
          type: 'image',
          image: 'https://example.com/cat.png',
          mediaType: 'image/png',
          detail: 'high',
        },
        { type: 'image', image: 'iVBORw0KGgo=' },
        {
          type: 'file',
          data: 'JVBERi0xLjQK',
          mediaType: 'application/pdf',
          filename: 'résumé.pdf',
        },
      ],
      name: 'ada',
      createdAt: BASE_TIME + 1,
      tokenCount: 0,
      metadata: {
        kind: 'message',
        nested: {
          list: [1, 2.5, -3, 0, true, false, null, 'x'],
          deep: { deeper: { deepest: '✓' } },
        },
        'ключ with spaces': 'значение',
        empty: {},
        emptyList: [],
        big: 9_007_199_254_740_991,
        small: 1e-7,
      },
    },
    {
      id: uniqueId('rich-assistant'),
      role: 'assistant',
      content: [
        { type: 'reasoning', text: 'Thinking…', signature: 'sig==' },
        { type: 'reasoning', text: '', redacted: 'b64data' },
        {
          type: 'provider',
          format: 'anthropic',
          value: { type: 'server_tool_use', input: { q: [1, { a: null }] } },
        },
        {
          type: 'text',
          text: 'Lone surrogate kept verbatim: \ud83d. Quotes " \' ` and \\ backslash, NUL-free.',
        },
      ],
      toolCalls: [
        { id: 'call_1', name: 'get_weather', arguments: '{"city":"Zürich","units":"metric"}' },
        { id: 'call_2', name: 'noop', arguments: '' },
      ],
      createdAt: BASE_TIME + 2,
      tokenCount: 42,
    },
    {
      id: uniqueId('rich-tool'),
      role: 'tool',
      content: 'Error: city not found\n\ttab and newline inside content are fine',
      toolCallId: 'call_1',
      toolName: 'get_weather',
      isError: true,
      createdAt: BASE_TIME + 3,
      tokenCount: 7,
    },
    {
      id: uniqueId('rich-system'),
      role: 'system',
      content: '',
      createdAt: 0,
      tokenCount: 1,
      metadata: { kind: 'context', source: 'critical-file.ts' },
    },
  ];
}

/** Append, read, info: order, seq, version, and exact read-back of what was appended. */
export function basicTests(createStore: StoreFactory, options: StoreSuiteOptions = {}): void {
  describe('basic', () => {
    const stores = useStores(createStore, options);

    it('declares the spec version, its namespace and boolean capabilities', async () => {
      const namespace = freshNamespace();
      const store = await stores.open(namespace);
      expect(store.specificationVersion).toBe('mem.store.v3');
      expect(store.namespace).toBe(namespace);
      for (const key of ['ttl', 'multiProcess', 'durable'] as const) {
        expect(typeof store.capabilities[key]).toBe('boolean');
      }
      // What the engine and the facades check before they use a store.
      expect(storeProblem(store)).toBeUndefined();
    });

    it('reads an unknown session as empty, at version 0 and epoch 0', async () => {
      const store = await stores.open();
      const id = uniqueId('nobody');
      expect(await store.info(id)).toBeNull();
      expect(await store.read(id)).toStrictEqual({ version: 0, epoch: 0, messages: [] });
      expect(await store.summaries(id)).toStrictEqual([]);
      expect(await store.archived(id, 'no-such-summary')).toStrictEqual([]);
      expect(await store.export(id)).toBeNull();
    });

    it('numbers appended messages from seq 1, in order, and bumps version per append', async () => {
      const store = await stores.open();
      const id = uniqueId('session');
      const [a, b, c] = [conversation(2, 'a'), conversation(1, 'b'), conversation(3, 'c')];
      expect(await append(store, id, a)).toStrictEqual({
        version: 1,
        epoch: 0,
        firstSeq: 1,
        lastSeq: 2,
        duplicate: false,
      });
      expect(await append(store, id, b)).toStrictEqual({
        version: 2,
        epoch: 0,
        firstSeq: 3,
        lastSeq: 3,
        duplicate: false,
      });
      expect(await append(store, id, c)).toMatchObject({ version: 3, firstSeq: 4, lastSeq: 6 });
      const all = [...a, ...b, ...c];
      expect(await store.read(id)).toStrictEqual({
        version: 3,
        epoch: 0,
        messages: numbered(all, 1),
      });
      const info = await store.info(id);
      expect(info).toMatchObject({
        id,
        version: 3,
        epoch: 0,
        lastSeq: 6,
        messageCount: 6,
        tokenCount: sumTokens(all),
      });
      expect(info?.createdAt).toBeTypeOf('number');
      expect(info!.updatedAt).toBeGreaterThanOrEqual(info!.createdAt);
    });

    it('reads back every field exactly: content parts, tool calls, metadata, unicode', async () => {
      const store = await stores.open();
      const id = uniqueId('rich');
      const messages = richMessages();
      await append(store, id, messages);
      const { messages: read } = await store.read(id);
      expect(read).toStrictEqual(numbered(messages, 1));
      const text = read[1]?.content;
      expect(
        Array.isArray(text) && text[3]?.type === 'text' && text[3].text.includes('\ud83d.'),
      ).toBe(true);
    });

    it('selects with afterSeq, beforeSeq, limit and from, always oldest first', async () => {
      const store = await stores.open();
      const id = uniqueId('range');
      const messages = conversation(10);
      await append(store, id, messages);
      const seqs = async (options: Parameters<typeof store.read>[1]) =>
        (await store.read(id, options)).messages.map((m) => m.seq);
      expect(await seqs({})).toStrictEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      expect(await seqs({ afterSeq: 7 })).toStrictEqual([8, 9, 10]);
      expect(await seqs({ beforeSeq: 4 })).toStrictEqual([1, 2, 3]);
      expect(await seqs({ afterSeq: 2, beforeSeq: 6 })).toStrictEqual([3, 4, 5]);
      expect(await seqs({ limit: 3 })).toStrictEqual([1, 2, 3]);
      expect(await seqs({ limit: 3, from: 'start' })).toStrictEqual([1, 2, 3]);
      expect(await seqs({ limit: 3, from: 'end' })).toStrictEqual([8, 9, 10]);
      expect(await seqs({ limit: 2, from: 'end', beforeSeq: 6 })).toStrictEqual([4, 5]);
      expect(await seqs({ limit: 2, from: 'end', afterSeq: 8 })).toStrictEqual([9, 10]);
      expect(await seqs({ limit: 2, afterSeq: 3, beforeSeq: 9 })).toStrictEqual([4, 5]);
      expect(await seqs({ limit: 50, from: 'end' })).toHaveLength(10);
      expect(await seqs({ limit: 0 })).toStrictEqual([]);
      expect(await seqs({ afterSeq: 10 })).toStrictEqual([]);
      expect(await seqs({ afterSeq: 6, beforeSeq: 3 })).toStrictEqual([]);
      const tail = await store.read(id, { limit: 2, from: 'end' });
      expect(tail.messages).toStrictEqual(numbered(messages, 1).slice(8));
    });

    it('keeps sessions apart', async () => {
      const store = await stores.open();
      const [one, two] = [uniqueId('one'), uniqueId('two')];
      const [a, b] = [conversation(2, 'a'), conversation(3, 'b')];
      await append(store, one, a);
      await append(store, two, b);
      expect((await store.read(one)).messages).toStrictEqual(numbered(a, 1));
      expect((await store.read(two)).messages).toStrictEqual(numbered(b, 1));
      expect((await store.info(two))?.version).toBe(1);
    });

    it('does not alias caller objects: mutating input or results never changes stored data', async () => {
      const store = await stores.open();
      const id = uniqueId('alias');
      const messages = richMessages();
      const expected = numbered(structuredClone(messages), 1);
      await append(store, id, messages);
      const first = messages[0]!;
      (first.content as { type: string; text?: string }[])[0]!.text = 'changed';
      (first.metadata!.nested as { list: unknown[] }).list.push('added');
      first.id = 'renamed';
      messages.pop();
      expect((await store.read(id)).messages).toStrictEqual(expected);

      const read = (await store.read(id)).messages;
      read[0]!.metadata!.kind = 'tampered';
      (read[1]!.toolCalls ?? []).splice(0);
      read[2]!.seq = 99;
      read.pop();
      expect((await store.read(id)).messages).toStrictEqual(expected);

      const info = await store.info(id);
      info!.messageCount = 0;
      expect((await store.info(id))?.messageCount).toBe(expected.length);
    });

    it('moves updatedAt forward on writes and keeps createdAt', async () => {
      const store = await stores.open();
      const id = uniqueId('times');
      await append(store, id, conversation(1));
      const before = await store.info(id);
      await new Promise((resolve) => setTimeout(resolve, 5));
      await append(store, id, [textMessage('later')]);
      const after = await store.info(id);
      expect(after?.createdAt).toBe(before?.createdAt);
      expect(after!.updatedAt).toBeGreaterThanOrEqual(before!.updatedAt);
      expect(after?.version).toBe(2);
    });

    it('rejects operations after close with MEM_STORE, and close twice is fine', async () => {
      const store = await createStore({ namespace: freshNamespace() });
      await store.close();
      await store.close();
      await expectMemError(store.read(uniqueId('closed')), 'MEM_STORE');
      await expectMemError(append(store, uniqueId('closed'), conversation(1)), 'MEM_STORE');
    });
  });
}
