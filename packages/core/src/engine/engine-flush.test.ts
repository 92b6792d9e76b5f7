import { describe, expect, it } from 'vitest';
import { isSummaryMessage } from '../model/message.ts';
import { createInMemoryBackend, createInMemoryStore } from '../store/in-memory-store.ts';
import type { Store } from '../store/store-spec.ts';
import { createMemoryEngine } from './memory-engine.ts';

const profile = {
  persistence_strategy: 'FLUSH',
  long_term_memory_strategy: [
    { long_term_memory_id: 'summarizer', interaction_threshold_qty: 3, interaction_keep: 1 },
  ],
};

/**
 * The engine's store, on a backend another writer (`other`) shares: before each of the first
 * `times` flushes, `interfere` writes through `other` (a real concurrent write, not a stub).
 */
function raced(times: number, interfere: (other: Store) => Promise<void>) {
  const backend = createInMemoryBackend();
  const store = createInMemoryStore({ backend });
  const other = createInMemoryStore({ backend });
  let left = times;
  const racing: Store = {
    ...store,
    async flush(sessionId, input) {
      if (left > 0) {
        left -= 1;
        await interfere(other);
      }
      return store.flush(sessionId, input);
    },
  };
  return { store: racing, other };
}

async function turns(session: ReturnType<ReturnType<typeof createMemoryEngine>['session']>) {
  for (let i = 1; i <= 4; i++) {
    await session.append({ role: 'user', content: `question ${i}` });
    await session.append({ role: 'assistant', content: `answer ${i}` });
    await session.idle();
  }
}

describe('engine FLUSH against another writer', () => {
  it('a flush that loses to another writer re-reads, keeps what that writer appended and flushes at the new epoch', async () => {
    const { store, other } = raced(1, async (o) => {
      // Another process appends a question, then a reply it takes back (a pop: epoch + 1).
      await o.append(
        's',
        [{ id: 'theirs', role: 'user', content: 'from elsewhere', createdAt: 1, tokenCount: 3 }],
        { idempotencyKey: 'theirs' },
      );
      await o.append(
        's',
        [{ id: 'gone', role: 'assistant', content: 'undone', createdAt: 2, tokenCount: 2 }],
        { idempotencyKey: 'gone' },
      );
      await o.pop('s');
    });
    const engine = createMemoryEngine({ profile, store });
    const conflicts: number[] = [];
    const errors: unknown[] = [];
    engine.on('flush:conflict', (e) => conflicts.push(e.attempt));
    engine.on('flush:error', (e) => errors.push(e.error));
    const session = engine.session('s');
    await session.append({ role: 'user', content: 'question 0' });
    await session.idle();
    expect(conflicts).toEqual([1]);
    const first = (await other.read('s')).messages.map((m) => m.id);
    expect(first).toContain('theirs');
    expect(first).not.toContain('gone');
    expect((await session.messages()).map((m) => m.id)).toEqual(first);

    await turns(session);
    expect(conflicts).toEqual([1]);
    expect(errors).toEqual([]);
    const snapshot = (await other.export('s'))!;
    expect(snapshot.archived).toEqual([]);
    expect(snapshot.summaries).toEqual([]);
    expect(snapshot.messages.filter(isSummaryMessage)).toHaveLength(1);
    expect(snapshot.messages).toEqual(await session.messages());
  });

  it('after 3 lost races it reports a MemStoreConflictError as flush:error, loses nothing, and the next inference flushes', async () => {
    let n = 0;
    const { store, other } = raced(3, async (o) => {
      // Each time another writer rewrites the session (an append it then pops: epoch + 1).
      n += 1;
      await o.append(
        's',
        [{ id: `x${n}`, role: 'user', content: 'x', createdAt: n, tokenCount: 1 }],
        { idempotencyKey: `x${n}` },
      );
      await o.pop('s');
    });
    const engine = createMemoryEngine({ profile, store });
    const errors: unknown[] = [];
    engine.on('flush:error', (e) => errors.push(e.error));
    const session = engine.session('s');
    // The first flush (first inference, nothing to drop yet) loses 3 races.
    await session.append({ role: 'user', content: 'question 0' });
    await session.idle();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ code: 'MEM_STORE_CONFLICT', counter: 'epoch' });
    await turns(session);
    expect(errors).toHaveLength(1);
    const snapshot = (await other.export('s'))!;
    expect(snapshot.archived).toEqual([]);
    expect(snapshot.summaries).toEqual([]);
    expect(snapshot.messages.filter(isSummaryMessage)).toHaveLength(1);
    expect(snapshot.messages.map((m) => m.content).at(-1)).toBe('answer 4');
  });
});
