import { describe, expect, it } from 'vitest';
import { parseProfile } from '../config/parse-profile.ts';
import { InteractionLog } from '../model/interaction-log.ts';
import { createInMemoryStore } from '../store/in-memory-store.ts';
import type { Store } from '../store/store-spec.ts';
import { createShortTermStrategies } from '../strategies/short-term/from-profile.ts';
import { selectionMessages, selectWindow } from '../strategies/short-term/short-term-strategy.ts';
import { generateConversation } from '../testing/generate-conversation.ts';
import { createTokenCounter, withTokenCount } from '../tokens/token-counter.ts';
import { createMemoryEngine } from './memory-engine.ts';

const counter = createTokenCounter();
const profile = parseProfile({
  short_term_memory_strategy: [{ memory_strategy_id: 'max_tokens', memory_max_tokens: 2000 }],
});

async function filled(
  interactions: number,
): Promise<{ store: Store; all: ReturnType<typeof generateConversation> }> {
  const store = createInMemoryStore();
  const system = { id: 'sys', role: 'system' as const, content: 'You are Juno.', createdAt: 0 };
  const all = [system, ...generateConversation({ interactions, seed: 21 })];
  const counted = all.map((m) => withTokenCount(m, counter));
  for (let i = 0; i < counted.length; i += 500) {
    await store.append('s', counted.slice(i, i + 500), { idempotencyKey: `k${i}` });
  }
  return { store, all };
}

/** A store that counts the messages its reads return (delegating to a real store). */
function counting(store: Store): { store: Store; read: () => number } {
  let read = 0;
  return {
    store: {
      ...store,
      append: (...a) => store.append(...a),
      info: (...a) => store.info(...a),
      read: async (...a) => {
        const r = await store.read(...a);
        read += r.messages.length;
        return r;
      },
    } as Store,
    read: () => read,
  };
}

describe('tail loading (token window, no long-term strategy)', () => {
  it('a fresh engine reads only the tail and builds the same prompt as from the whole history', async () => {
    const { store, all } = await filled(3000);
    const spy = counting(store);
    const engine = createMemoryEngine({ profile, store: spy.store });
    const context = await engine.session('s').context();
    expect(spy.read()).toBeLessThan(1000);

    const whole = new InteractionLog(all.map((m) => withTokenCount(m, counter)));
    const expected = selectionMessages(
      selectWindow(whole, createShortTermStrategies(profile, counter), 3),
    );
    expect(context.messages.map((m) => m.id)).toEqual(expected.map((m) => m.id));
    expect(context.messages[0]!.id).toBe('sys');
  });

  it('keeps following appends after a tail load', async () => {
    const { store } = await filled(500);
    const engine = createMemoryEngine({ profile, store });
    const session = engine.session('s');
    await session.context();
    await session.append({ role: 'user', content: 'And now?' });
    const context = await session.context();
    expect(context.messages.at(-1)!.content).toBe('And now?');
  });
});
