import { describe, expect, it } from 'vitest';
import { MemValidationError } from '../errors/errors.ts';
import { isSummaryMessage } from '../model/message.ts';
import { createInMemoryStore } from '../store/in-memory-store.ts';
import { generateConversation } from '../testing/generate-conversation.ts';
import { turnsOf } from './__fixtures__/replay.ts';
import { createMemoryEngine } from './memory-engine.ts';
import type { MemorySession } from './memory-session.ts';

const window = { memory_strategy_id: 'max_tokens', memory_max_tokens: 4000 };

describe('engine append: what the store holds', () => {
  it('a retried idempotency key returns what the store kept, marked duplicate', async () => {
    const engine = createMemoryEngine({ profile: { short_term_memory_strategy: [window] } });
    const session = engine.session('s');
    const first = await session.append({ role: 'user', content: 'first' }, { idempotencyKey: 'k' });
    expect(first.duplicate).toBe(false);
    const retry = await session.append(
      { role: 'user', content: 'something else' },
      { idempotencyKey: 'k' },
    );
    expect(retry.duplicate).toBe(true);
    expect(retry.map((m) => [m.id, m.content, m.seq])).toEqual(
      first.map((m) => [m.id, m.content, m.seq]),
    );
    const stored = await session.messages();
    expect(stored.map((m) => m.content)).toEqual(['first']);
    const context = await session.context();
    expect(context.messages.map((m) => m.content)).toEqual(['first']);
  });

  it('an idempotency key that is not well-formed Unicode is refused, never a silent duplicate', async () => {
    const engine = createMemoryEngine({ profile: { short_term_memory_strategy: [window] } });
    const session = engine.session('s');
    // The first halves of two different emoji: a UTF-8 store would see both as U+FFFD.
    const first = await session
      .append({ role: 'user', content: 'a' }, { idempotencyKey: '\ud83d' })
      .catch((e: unknown) => e);
    expect(first).toBeInstanceOf(MemValidationError);
    expect((first as MemValidationError).field).toBe('idempotencyKey');
    await session.append({ role: 'user', content: 'b' }, { idempotencyKey: '\ud83d\ude00' });
    expect((await session.messages()).map((m) => m.content)).toEqual(['b']);
  });

  it('a new key returns the stored messages, not a duplicate', async () => {
    const engine = createMemoryEngine({ profile: { short_term_memory_strategy: [window] } });
    const out = await engine.session('s').append([
      { role: 'user', content: 'a' },
      { role: 'assistant', content: 'b' },
    ]);
    expect(out.duplicate).toBe(false);
    expect(out.map((m) => m.seq)).toEqual([1, 2]);
  });
});

describe('engine append: bad input is a MemValidationError naming the field', () => {
  const engine = createMemoryEngine({ profile: { short_term_memory_strategy: [window] } });
  const cases: Array<[string, unknown, string]> = [
    ['number content', { role: 'user', content: 42 }, 'messages[0].content'],
    ['null content on a user message', { role: 'user', content: null }, 'messages[0].content'],
    ['missing content', { role: 'user' }, 'messages[0].content'],
    [
      'toolCalls not an array',
      { role: 'assistant', content: '', toolCalls: 'x' },
      'messages[0].toolCalls',
    ],
    [
      'a tool call without arguments',
      { role: 'assistant', content: '', toolCalls: [{ id: 'c', name: 'f' }] },
      'messages[0].toolCalls[0].arguments',
    ],
    ['a bad role', { role: 'robot', content: 'x' }, 'messages[0].role'],
    [
      'a content part without text',
      { role: 'user', content: [{ type: 'text' }] },
      'messages[0].content',
    ],
    ['a number name', { role: 'user', content: 'x', name: 7 }, 'messages[0].name'],
    ['not an object', 'hello', 'messages[0]'],
  ];
  for (const [what, message, field] of cases) {
    it(what, async () => {
      const session = engine.session(`bad-${field.length}-${what.length}`);
      const error = await session.append(message as never).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MemValidationError);
      expect((error as MemValidationError).field).toBe(field);
      expect((error as Error).message).toContain(field);
      expect(await session.messages()).toEqual([]);
    });
  }

  it('an OpenAI-style assistant tool call with content null is accepted (stored as "")', async () => {
    const session = engine.session('tool-null');
    const [stored] = await session.append({
      role: 'assistant',
      content: null as never,
      toolCalls: [{ id: 'c1', name: 'lookup', arguments: '{"q":1}' }],
    });
    expect(stored!.content).toBe('');
    expect(stored!.toolCalls).toEqual([{ id: 'c1', name: 'lookup', arguments: '{"q":1}' }]);
  });
});

describe('persistence_strategy FLUSH', () => {
  const profile = {
    persistence_strategy: 'FLUSH',
    short_term_memory_strategy: [window],
    long_term_memory_strategy: [
      {
        long_term_memory_id: 'summarizer',
        interaction_threshold_qty: 10,
        interaction_keep: 4,
        cod_max_loops: 1,
      },
    ],
  };

  it('after every inference the store holds exactly the conversation: no archive, no summary record, also for a new process', async () => {
    const store = createInMemoryStore();
    const turns = turnsOf(generateConversation({ interactions: 20, seed: 3, idPrefix: 'f' }));
    const before = createMemoryEngine({ profile, store });
    const flushed: number[] = [];
    before.on('flushed', (e) => flushed.push(e.droppedSummaries));
    for (const t of turns) {
      await before.session('s').append(t);
      await before.idle();
      const snapshot = (await store.export('s'))!;
      expect(snapshot.archived).toEqual([]);
      expect(snapshot.summaries).toEqual([]);
      expect(snapshot.messages).toEqual(await before.session('s').messages());
    }
    expect(flushed.length).toBeGreaterThan(0);
    expect(flushed.every((n) => n === 1)).toBe(true);

    const after = createMemoryEngine({ profile, store }); // a new process on the same store
    const session = after.session('s');
    const active = await session.messages();
    expect(active.filter(isSummaryMessage)).toHaveLength(1);
    expect((await session.history()).map((m) => m.id)).toEqual(active.map((m) => m.id));
    expect(await session.summaries()).toEqual([]);
    const context = await after.session('s').context();
    expect(context.messages.map((m) => m.id)).toEqual(
      (await before.session('s').context()).messages.map((m) => m.id),
    );
  });

  it('two engines flushing one session lose no acknowledged message: each is active or in a committed summary', async () => {
    const store = createInMemoryStore();
    const engines = [
      createMemoryEngine({ profile, store }),
      createMemoryEngine({ profile, store }),
    ];
    const summarized = new Set<string>();
    for (const engine of engines) {
      engine.on('compacted', (e) => {
        for (const id of e.record.originalMessageIds) summarized.add(id);
      });
    }
    const [a, b] = engines.map((e) => e.session('s')) as [MemorySession, MemorySession];
    const turnsA = turnsOf(generateConversation({ interactions: 100, seed: 4, idPrefix: 'a' }));
    const turnsB = turnsOf(generateConversation({ interactions: 100, seed: 5, idPrefix: 'b' }));
    const acknowledged: string[] = [];
    await Promise.all([
      (async () => {
        for (const t of turnsA) acknowledged.push(...(await a.append(t)).map((m) => m.id));
      })(),
      (async () => {
        for (const t of turnsB) acknowledged.push(...(await b.append(t)).map((m) => m.id));
      })(),
    ]);
    await Promise.all([a.idle(), b.idle()]);
    await a.append({ role: 'user', content: 'one more' });
    await a.idle();
    const snapshot = (await store.export('s'))!;
    const active = new Set(snapshot.messages.map((m) => m.id));
    expect(acknowledged.length).toBe([...turnsA, ...turnsB].flat().length);
    expect(summarized.size).toBeGreaterThan(0);
    expect(acknowledged.filter((id) => !active.has(id) && !summarized.has(id))).toEqual([]);
    expect(snapshot.archived).toEqual([]);
    expect(snapshot.summaries).toEqual([]);
  });
});
