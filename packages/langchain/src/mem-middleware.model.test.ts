import { HumanMessage } from '@langchain/core/messages';
import { createInMemoryStore, createMemoryEngine, type MemoryEngineEvents } from '@mem/core';
import { createAgent } from 'langchain';
import { describe, expect, it } from 'vitest';
import { AnsweringChatModel } from './__fixtures__/answering-chat-model.ts';
import { modelIdOf } from './agent/model-id.ts';
import { memMiddleware } from './mem-middleware.ts';

/** The same answering model, named as ChatAnthropic names its model. */
class ClaudeNamedModel extends AnsweringChatModel {
  readonly model = 'claude-sonnet-4-5';
}

describe('memMiddleware counts tokens for the agent’s chat model', () => {
  it("reports the provider's input tokens against mem's count, under the chat model's id", async () => {
    const engine = createMemoryEngine({ profile: {}, store: createInMemoryStore() });
    const compared: MemoryEngineEvents['tokens:compared'][] = [];
    engine.on('tokens:compared', (e) => compared.push(e));
    const agent = createAgent({
      model: new ClaudeNamedModel(),
      middleware: [memMiddleware({ engine })],
    });

    await agent.invoke(
      { messages: [new HumanMessage('Hello?')] },
      { configurable: { thread_id: 't' } },
    );

    // The fixture model reports 1,000 input tokens per message it was sent (here: one).
    expect(compared.map((c) => [c.model, c.encoding, c.reported])).toStrictEqual([
      ['claude-sonnet-4-5', 'claude', 1000],
    ]);
  });

  it('reads model, then modelName; an id mem cannot read counts as no model', () => {
    expect(modelIdOf({ model: 'gpt-4o-mini' })).toBe('gpt-4o-mini');
    expect(modelIdOf({ modelName: 'claude-3-5-haiku-latest' })).toBe('claude-3-5-haiku-latest');
    expect(modelIdOf({ model: 'my model', modelName: 'gpt-4o' })).toBe('gpt-4o');
    expect(modelIdOf({ model: 'my model' })).toBeUndefined();
    expect(modelIdOf(undefined)).toBeUndefined();
  });
});
