import { describe, expect, it } from 'vitest';
import { MemStoreError } from '../errors/errors.ts';
import { createInMemoryStore } from '../store/in-memory-store.ts';
import type { Store } from '../store/store-spec.ts';
import { createMemoryEngine } from './memory-engine.ts';

const window = { memory_strategy_id: 'max_tokens', memory_max_tokens: 4000 };
const profile = { short_term_memory_strategy: [window] };

describe('engine session pop', () => {
  it('removes the newest message, and the context of every engine on the store follows', async () => {
    const store = createInMemoryStore();
    const mine = createMemoryEngine({ profile, store }).session('s');
    const other = createMemoryEngine({ profile, store }).session('s');
    await mine.append([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello' },
      { role: 'user', content: 'typo' },
    ]);
    // Both engines have cached the three messages.
    expect((await other.context()).messages.map((m) => m.content)).toEqual(['hi', 'hello', 'typo']);
    const popped = await mine.pop();
    expect(popped).toMatchObject({ role: 'user', content: 'typo', seq: 3 });
    expect((await mine.context()).messages.map((m) => m.content)).toEqual(['hi', 'hello']);
    expect((await other.context()).messages.map((m) => m.content)).toEqual(['hi', 'hello']);
    await mine.append({ role: 'user', content: 'fixed' });
    expect(
      (await other.context()).messages.map((m) => [m.content, (m as { seq?: number }).seq]),
    ).toEqual([
      ['hi', 1],
      ['hello', 2],
      ['fixed', 4],
    ]);
  });

  it('returns null on an empty session and when the newest message is a summary', async () => {
    const engine = createMemoryEngine({ profile });
    const session = engine.session('s');
    expect(await session.pop()).toBeNull();
    await session.append([
      { role: 'user', content: 'one' },
      { role: 'assistant', content: 'two' },
    ]);
    expect(await session.summarizeNow({ keepInteractions: 0 })).toBe(true);
    expect(await session.pop()).toBeNull();
    expect((await session.summaries()).length).toBe(1);
  });

  it('says what is missing when the store predates pop', async () => {
    const { pop: _pop, ...rest } = createInMemoryStore();
    const store = { ...rest } as Store;
    const session = createMemoryEngine({ profile, store }).session('s');
    await session.append({ role: 'user', content: 'hi' });
    await expect(session.pop()).rejects.toThrow(MemStoreError);
    await expect(session.pop()).rejects.toThrow(/Store\.pop/);
  });
});
