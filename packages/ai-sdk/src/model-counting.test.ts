import { createMemoryEngine, type MemoryEngineEvents } from '@mem/core';
import { generateText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { textResult } from './__fixtures__/model-results.ts';
import { storeKinds } from './__fixtures__/sdk-under-test.ts';
import { memoryMiddleware } from './index.ts';
import { modelIdOf } from './model-id.ts';

// Japanese: Claude's encoding needs ~1.5× the tokens of o200k for the same text.
const turns = Array.from({ length: 12 }, (_, i) => [
  `${i + 1}回目の質問です。明日の午前十時の会議について、場所と参加者をもう一度教えてください。`,
  `${i + 1}回目の回答です。会議は本社三階の会議室で、田中さんと佐藤さんが参加します。資料は前日までに共有します。`,
]);

for (const [storeName, createStore] of storeKinds()) {
  describe(`tokens counted for the wrapped model, on ${storeName}`, () => {
    const promptFor = async (modelId: string) => {
      const engine = createMemoryEngine({
        store: createStore(),
        profile: {
          short_term_memory_strategy: [
            { memory_strategy_id: 'max_tokens', memory_max_tokens: 600 },
          ],
        },
      });
      const session = engine.session('jp');
      for (const [q, a] of turns) {
        await session.append([
          { role: 'user', content: q! },
          { role: 'assistant', content: a! },
        ]);
      }
      const compared: MemoryEngineEvents['tokens:compared'][] = [];
      engine.on('tokens:compared', (e) => compared.push(e));
      const model = new MockLanguageModelV3({ modelId, doGenerate: textResult('はい。', 420) });
      const wrapped = wrapLanguageModel({
        model,
        middleware: memoryMiddleware({ engine, sessionId: 'jp' }),
      });
      await generateText({ model: wrapped, prompt: '会議の場所はどこですか?' });
      return { prompt: model.doGenerateCalls[0]!.prompt, compared };
    };

    it("budgets a Claude model's window in Claude tokens, not o200k's", async () => {
      const gpt = await promptFor('gpt-4o');
      const claude = await promptFor('claude-sonnet-4-5');
      // The same 600-token budget holds fewer Japanese turns in Claude's tokens.
      expect(claude.prompt.length).toBeGreaterThan(1);
      expect(claude.prompt.length).toBeLessThan(gpt.prompt.length);
    });

    it("reports the provider's input tokens against mem's count, under the model's id", async () => {
      const { compared } = await promptFor('claude-sonnet-4-5');
      expect(compared).toHaveLength(1);
      expect(compared[0]).toMatchObject({
        sessionId: 'jp',
        model: 'claude-sonnet-4-5',
        encoding: 'claude',
        reported: 420,
      });
      expect(compared[0]!.counted).toBeGreaterThan(0);
    });
  });
}

describe('the model id mem counts for', () => {
  it('is the wrapped model’s modelId; an id mem cannot read counts as no model', () => {
    expect(modelIdOf({ modelId: 'us.anthropic.claude-sonnet-4-5-v1:0' })).toBe(
      'us.anthropic.claude-sonnet-4-5-v1:0',
    );
    expect(modelIdOf({ modelId: 'my model (eu)' })).toBeUndefined();
    expect(modelIdOf({ modelId: 42 })).toBeUndefined();
    expect(modelIdOf(null)).toBeUndefined();
  });
});
