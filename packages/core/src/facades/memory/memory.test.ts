import { describe, expect, expectTypeOf, it } from 'vitest';
import { MemError } from '../../errors/mem-error.ts';
import { isSummaryMessage } from '../../model/message.ts';
import { createInMemoryStore } from '../../store/in-memory-store.ts';
import { createTokenCounter } from '../../tokens/token-counter.ts';
import { range, turn, turnNumbers } from './__fixtures__/turns.ts';
import { Memory } from './memory.ts';
import type { MemoryChangeReason } from './memory-events.ts';
import type { MemoryView } from './memory-view.ts';

const counter = createTokenCounter();

describe('Memory.add and messages', () => {
  it('appends a turn as a user message and an assistant reply, counted once', async () => {
    const memory = new Memory();
    await memory.add('hi, I am Marco', 'Hello Marco!');
    const messages = await memory.messages();
    expect(messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'hi, I am Marco'],
      ['assistant', 'Hello Marco!'],
    ]);
    expect(messages.map((m) => m.tokenCount)).toEqual(messages.map((m) => counter.countMessage(m)));
  });

  it('records a provider-reported turn size: the reply gets what the user message leaves', async () => {
    const memory = new Memory();
    const user = { id: 'x', role: 'user' as const, content: 'hi, I am Marco', createdAt: 0 };
    const userTokens = counter.countMessage(user);
    await memory.add(user.content, 'Hello Marco!', { tokens: 100 });
    await memory.add(user.content, 'Hello again.', { tokens: 2 });
    await memory.add(user.content, 'Counted.', { tokens: 0 });
    const counts = (await memory.messages()).map((m) => m.tokenCount);
    expect(counts.slice(0, 4)).toEqual([userTokens, 100 - userTokens, 2, 0]);
    expect(counts[5]).toBe(
      counter.countMessage({ id: 'y', role: 'assistant', content: 'Counted.', createdAt: 0 }),
    );
  });

  it('rejects bad input with a MemValidationError naming it', async () => {
    const memory = new Memory();
    for (const [args, field] of [
      [[42, 'reply'], 'user'],
      [['hi', null], 'assistant'],
      [['hi', 'reply', { tokens: -1 }], 'options.tokens'],
      [['hi', 'reply', { tokens: 1.5 }], 'options.tokens'],
      [['hi', 'reply', { token: 3 }], 'options'],
    ] as const) {
      const error = await (memory.add as (...a: unknown[]) => Promise<void>)(...args).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(MemError.hasCode(error, 'MEM_VALIDATION')).toBe(true);
      expect(error).toMatchObject({ field });
      expect((error as Error).message).toMatch(/^\[mem\/core\] Memory\.add/);
    }
    expect(await memory.messages()).toEqual([]);
  });
});

describe('Memory.text', () => {
  it('renders the current view as labelled lines, re-read on every call', async () => {
    const memory = new Memory();
    expect(await memory.text()).toBe('');
    await memory.add('hi, I am Marco', 'Hello Marco!');
    const first = await memory.text();
    expect(first).toBe('User: hi, I am Marco\nAssistant: Hello Marco!');
    await memory.add("what's my name?", 'Marco.');
    expect(await memory.text()).toBe(`${first}\nUser: what's my name?\nAssistant: Marco.`);
  });

  it('labels the summary', async () => {
    const memory = new Memory({ strategy: 'summary', summarizer: async () => 'Six travellers.' });
    for (const i of range(1, 11)) await memory.add(...turn(i));
    await memory.idle();
    const lines = (await memory.text()).split('\n');
    expect(lines[0]).toBe('Summary of earlier turns: Six travellers.');
    expect(lines[1]).toBe(`User: ${turn(7)[0]}`);
    expect(lines).toHaveLength(11);
  });
});

describe('Memory.clear', () => {
  it('wipes turns, summaries and archived originals, in the store too', async () => {
    const store = createInMemoryStore();
    const memory = new Memory({ strategy: 'summary', store, sessionId: 'c' });
    for (const i of range(1, 12)) await memory.add(...turn(i));
    await memory.idle();
    const [summary] = await store.summaries('c');
    expect(summary).toBeDefined();
    await memory.clear();
    expect(await memory.messages()).toEqual([]);
    expect(await memory.text()).toBe('');
    expect(await store.info('c')).toBeNull();
    expect(await store.summaries('c')).toEqual([]);
    expect(await store.archived('c', summary!.id)).toEqual([]);
    await memory.add(...turn(1)); // usable again
    expect(turnNumbers(await memory.messages())).toEqual([1]);
  });
});

describe('Memory persistence through a shared store', () => {
  it('a second Memory with the same store and sessionId sees the turns', async () => {
    const store = createInMemoryStore();
    const first = new Memory({ store, sessionId: 'chat-1' });
    for (const i of range(1, 3)) await first.add(...turn(i));
    const second = new Memory({ store, sessionId: 'chat-1' });
    expect(turnNumbers(await second.messages())).toEqual([1, 2, 3]);
    await second.add(...turn(4));
    expect(turnNumbers(await first.messages())).toEqual([1, 2, 3, 4]);
    const other = new Memory({ store, sessionId: 'chat-2' });
    expect(await other.messages()).toEqual([]);
  });

  it('a reopened summary memory starts from the summary', async () => {
    const store = createInMemoryStore();
    const first = new Memory({ strategy: 'summary', store, sessionId: 's' });
    for (const i of range(1, 11)) await first.add(...turn(i));
    await first.idle();
    const reopened = new Memory({ strategy: 'summary', store, sessionId: 's' });
    const messages = await reopened.messages();
    expect(isSummaryMessage(messages[0]!)).toBe(true);
    expect(turnNumbers(messages)).toEqual(range(7, 11));
  });
});

describe('Memory.view', () => {
  it('is a live read-only view: later adds show without re-creating it', async () => {
    const memory = new Memory({ sessionId: 'v' });
    const view = memory.view();
    expect(memory.view()).toBe(view);
    expect(view.sessionId).toBe('v');
    const changes: MemoryChangeReason[] = [];
    const off = view.on('change', (e) => changes.push(e.reason));
    expect(await view.messages()).toEqual([]);
    await memory.add(...turn(1));
    await memory.add(...turn(2));
    expect(turnNumbers(await view.messages())).toEqual([1, 2]);
    expect(await view.text()).toBe(await memory.text());
    await memory.clear();
    expect(await view.text()).toBe('');
    expect(changes).toEqual(['added', 'added', 'cleared']);
    off();
    await memory.add(...turn(3));
    expect(changes).toHaveLength(3);
  });

  it('cannot write: no add or clear, in the type or on the object', () => {
    const view = new Memory().view();
    expectTypeOf(view).toEqualTypeOf<MemoryView>();
    expectTypeOf(view).not.toHaveProperty('add');
    expectTypeOf(view).not.toHaveProperty('clear');
    // @ts-expect-error a view has no add
    expect(view.add).toBeUndefined();
    // @ts-expect-error a view has no clear
    expect(view.clear).toBeUndefined();
    expect(Object.keys(view).sort()).toEqual(['messages', 'on', 'sessionId', 'text']);
    expect(Object.isFrozen(view)).toBe(true);
  });
});

describe('Memory events', () => {
  it('reports changes from adds, compressions and erasures; a throwing listener is isolated', async () => {
    const memory = new Memory({ strategy: 'summary', maxTurns: 12 });
    const changes: MemoryChangeReason[] = [];
    memory.on('change', () => {
      throw new Error('listener bug');
    });
    memory.on('change', (e) => changes.push(e.reason));
    for (const i of range(1, 11)) await memory.add(...turn(i));
    await memory.idle();
    expect(changes).toEqual([...range(1, 11).map(() => 'added'), 'compressed']);

    const sliding = new Memory({ strategy: 'sliding' });
    const slid: MemoryChangeReason[] = [];
    sliding.on('change', (e) => slid.push(e.reason));
    for (const i of range(1, 11)) await sliding.add(...turn(i));
    expect(slid).toEqual([...range(1, 11).map(() => 'added'), 'erased']);
  });

  it('relays a failed background compression as an error event, history unchanged', async () => {
    const store = createInMemoryStore();
    const failing = { ...store, compact: () => Promise.reject(new Error('disk full')) };
    const memory = new Memory({ strategy: 'summary', store: failing, sessionId: 'e' });
    const errors: unknown[] = [];
    memory.on('error', (e) => errors.push(e.error));
    for (const i of range(1, 11)) await memory.add(...turn(i));
    await memory.idle();
    expect(errors).toEqual([expect.objectContaining({ message: 'disk full' })]);
    expect(turnNumbers(await memory.messages())).toEqual(range(1, 11));
  });
});
