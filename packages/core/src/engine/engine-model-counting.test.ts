import { describe, expect, it } from 'vitest';
import { MemValidationError } from '../errors/errors.ts';
import type { Message } from '../model/message.ts';
import { createInMemoryStore } from '../store/in-memory-store.ts';
import { createTokenCounter, type TokenCounter } from '../tokens/token-counter.ts';
import type { MemoryEngineEvents } from './engine-events.ts';
import { createMemoryEngine } from './memory-engine.ts';

const profile = {
  short_term_memory_strategy: [{ memory_strategy_id: 'max_tokens', memory_max_tokens: 100_000 }],
};

const turns = (n: number) =>
  Array.from({ length: n }, (_, i) => [
    { role: 'user' as const, content: `Question ${i}: wie weit ist es von Graz nach Hamburg?` },
    { role: 'assistant' as const, content: `東京から大阪まで新幹線で約二時間半です。答え ${i}.` },
  ]).flat();

/** A real counter that tallies how many messages it counted. */
function tallied(counter: TokenCounter): TokenCounter & { counted: number } {
  const out = {
    counted: 0,
    encoding: counter.encoding,
    replyPrimingTokens: counter.replyPrimingTokens,
    countText: (text: string) => counter.countText(text),
    countMessage: (message: Message) => {
      out.counted++;
      return counter.countMessage(message);
    },
    ready: async () => {
      await counter.ready?.();
    },
  };
  return out;
}

async function promptTokens(model: string, messages: readonly Message[]): Promise<number> {
  const counter = createTokenCounter({ model });
  await counter.ready?.();
  return messages.reduce((n, m) => n + counter.countMessage(m), counter.replyPrimingTokens);
}

describe('the engine counts for the model the prompt is for', () => {
  it('createMemoryEngine({ model }) budgets a Claude session in Claude tokens', async () => {
    const engine = createMemoryEngine({ profile, model: 'claude-sonnet-4-5' });
    const session = engine.session('s');
    await session.append(turns(3));
    const context = await session.context();
    expect(engine.tokenCounter.encoding).toBe('claude');
    expect(context.tokenCount).toBe(await promptTokens('claude-sonnet-4-5', context.messages));
    expect(context.tokenCount).toBeGreaterThan(await promptTokens('gpt-4o', context.messages));
  });

  it('a session that switches model recounts its messages once, then never again', async () => {
    const counters = new Map<string, ReturnType<typeof tallied>>();
    const engine = createMemoryEngine({
      profile,
      model: 'gpt-4o',
      tokenCounter: (model) => {
        const counter = tallied(createTokenCounter(model === undefined ? {} : { model }));
        counters.set(model ?? '', counter);
        return counter;
      },
    });
    const session = engine.session('s');
    await session.append(turns(5));
    const gpt = counters.get('gpt-4o')!;
    expect(gpt.counted).toBe(10);

    const first = await session.context({ model: 'claude-3-5-haiku-20241022' });
    const claude = counters.get('claude-3-5-haiku-20241022')!;
    expect(claude.counted).toBe(10);
    expect(first.tokenCount).toBe(await promptTokens('claude-3-5-haiku-20241022', first.messages));
    // Later calls, with or without the model, re-select the window without counting anything.
    await session.context();
    await session.context({ model: 'claude-3-5-haiku-20241022' });
    await session.context({ next: { role: 'user', content: 'und zurück?' } });
    expect(claude.counted).toBe(11); // only the `next` message
    await session.append({ role: 'user', content: 'Danke!' });
    expect(claude.counted).toBe(12);
    expect(gpt.counted).toBe(10);

    // Back to the first model: one more recount of the 11 stored messages.
    const back = await session.context({ model: 'gpt-4o' });
    expect(gpt.counted).toBe(21);
    expect(back.tokenCount).toBe(await promptTokens('gpt-4o', back.messages));
  });

  it('models with the same counting share one counter: moving between them recounts nothing', async () => {
    const engine = createMemoryEngine({ profile, model: 'gpt-4o' });
    const session = engine.session('s');
    await session.append(turns(2));
    const before = await session.context();
    const after = await session.context({ model: 'openai/gpt-5-mini' });
    expect(after.messages).toEqual(before.messages);
    expect(after.messages[0]).toBe(before.messages[0]);
  });

  it('an explicit TokenCounter wins over the model', async () => {
    const mine = tallied(createTokenCounter({ encoding: 'cl100k_base' }));
    const engine = createMemoryEngine({ profile, model: 'claude-sonnet-4-5', tokenCounter: mine });
    const session = engine.session('s');
    await session.append(turns(1));
    const context = await session.context({ model: 'claude-opus-4-1' });
    expect(engine.tokenCounter).toBe(mine);
    expect(mine.counted).toBe(2);
    expect(context.tokenCount).toBe(await promptTokens('gpt-4', context.messages));
  });

  it('a bad model id is a MemValidationError naming the field', async () => {
    expect(() => createMemoryEngine({ profile, model: 42 as unknown as string })).toThrow(
      expect.objectContaining({ field: 'model' }),
    );
    const session = createMemoryEngine({ profile }).session('s');
    await expect(session.context({ model: 'claude 3' })).rejects.toThrow(MemValidationError);
    await expect(session.append(turns(1), { model: {} as string })).rejects.toThrow(
      expect.objectContaining({ field: 'options.model' }),
    );
    expect(() => createMemoryEngine({ profile, tokenCounter: () => ({}) as TokenCounter })).toThrow(
      expect.objectContaining({ field: 'tokenCounter' }),
    );
  });

  it('reports the provider’s inputTokens against the counted prompt, per model', async () => {
    const store = createInMemoryStore();
    const engine = createMemoryEngine({ profile, store, model: 'gpt-4o' });
    const seen: MemoryEngineEvents['tokens:compared'][] = [];
    engine.on('tokens:compared', (e) => seen.push(e));
    const session = engine.session('s');
    await session.append(turns(2));

    const a = await session.context({ next: { role: 'user', content: 'Next?' } });
    await session.append({ role: 'assistant', content: 'Yes.' }, { usage: { inputTokens: 90 } });
    // No context() since: nothing to compare with.
    await session.append({ role: 'user', content: 'More.' }, { usage: { inputTokens: 95 } });
    const b = await session.context({ model: 'claude-sonnet-4-5' });
    await session.append(
      { role: 'assistant', content: 'Sure.' },
      { usage: { inputTokens: 200 }, model: 'claude-sonnet-4-5' },
    );

    expect(seen).toEqual([
      {
        sessionId: 's',
        model: 'gpt-4o',
        encoding: 'o200k_base',
        counted: a.tokenCount,
        reported: 90,
      },
      {
        sessionId: 's',
        model: 'claude-sonnet-4-5',
        encoding: 'claude',
        counted: b.tokenCount,
        reported: 200,
      },
    ]);
    expect(engine.tokenAccuracy()).toEqual([
      expect.objectContaining({
        model: 'gpt-4o',
        encoding: 'o200k_base',
        calls: 1,
        counted: a.tokenCount,
        reported: 90,
        ratio: 90 / a.tokenCount,
      }),
      expect.objectContaining({ model: 'claude-sonnet-4-5', calls: 1, ratio: 200 / b.tokenCount }),
    ]);
  });
});
