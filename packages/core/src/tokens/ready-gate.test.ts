import { describe, expect, it } from 'vitest';
import { createMemoryEngine } from '../engine/memory-engine.ts';
import { Memory } from '../facades/memory/memory.ts';
import { MemoryManager } from '../facades/memory-manager/memory-manager.ts';
import type { Message } from '../model/message.ts';
import { createTokenCounter, type TokenCounter } from './token-counter.ts';

/**
 * A user's counter that, like one in a browser bundle, cannot count before `ready()` resolved
 * (which takes a few event-loop turns here).
 */
function counterNeedingReady(): TokenCounter & { readyCalls: number } {
  const inner = createTokenCounter();
  let loaded = false;
  const guard = () => {
    if (!loaded) throw new Error('counted before ready()');
  };
  return {
    encoding: inner.encoding,
    replyPrimingTokens: inner.replyPrimingTokens,
    readyCalls: 0,
    countText(text: string) {
      guard();
      return inner.countText(text);
    },
    countMessage(message: Message) {
      guard();
      return inner.countMessage(message);
    },
    async ready() {
      this.readyCalls++;
      await new Promise((resolve) => setTimeout(resolve, 5));
      loaded = true;
    },
  };
}

describe('counters with ready()', () => {
  it('the engine awaits ready() before its session calls count', async () => {
    const tokenCounter = counterNeedingReady();
    const engine = createMemoryEngine({
      profile: {
        short_term_memory_strategy: [{ memory_strategy_id: 'max_tokens', memory_max_tokens: 500 }],
      },
      tokenCounter,
    });
    const session = engine.session('s');
    // Started before ready() resolved, in this order, and run in this order.
    const [context, appended] = await Promise.all([
      session.context({ next: [{ role: 'user', content: 'first question' }] }),
      session.append({ role: 'user', content: 'hello there' }),
    ]);
    expect(context.messages.map((m) => m.content)).toEqual(['first question']);
    expect(appended[0]!.tokenCount).toBeGreaterThan(3);
    expect((await session.context()).messages).toHaveLength(1);
    expect(tokenCounter.readyCalls).toBe(1);
  });

  it('Memory and MemoryManager await it too', async () => {
    const memory = new Memory({ tokenCounter: counterNeedingReady() });
    await memory.add('hi', 'hello!', { tokens: 20 });
    expect(await memory.messages()).toHaveLength(2);

    const manager = new MemoryManager({ tokenCounter: counterNeedingReady(), autoCompress: false });
    const entry = await manager.addUserMessage('s', 'Hello, how are you?');
    expect(entry.tokenCount).toBeGreaterThan(3);
    expect(await manager.getContextForLLM('s')).toContain('Hello, how are you?');
  });

  it('a failed ready() rejects the call, and the next call tries again', async () => {
    let attempts = 0;
    const inner = createTokenCounter();
    const engine = createMemoryEngine({
      profile: {},
      tokenCounter: {
        ...inner,
        async ready() {
          attempts++;
          if (attempts === 1) throw new Error('chunk failed to load');
        },
      },
    });
    const session = engine.session('s');
    await expect(session.append({ role: 'user', content: 'hi' })).rejects.toThrow(
      'chunk failed to load',
    );
    await expect(session.append({ role: 'user', content: 'hi' })).resolves.toHaveLength(1);
    expect(attempts).toBe(2);
  });
});
