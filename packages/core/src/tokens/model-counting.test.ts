import { describe, expect, it } from 'vitest';
import { MemValidationError } from '../errors/errors.ts';
import { modelCounting } from './model-counting.ts';
import { createTokenCounter } from './token-counter.ts';

const TABLE: ReadonlyArray<readonly [string | undefined, string]> = [
  [undefined, 'o200k_base'],
  ['gpt-4o', 'o200k_base'],
  ['gpt-4o-mini-2024-07-18', 'o200k_base'],
  ['gpt-4.1-nano', 'o200k_base'],
  ['gpt-5', 'o200k_base'],
  ['gpt-5.1-codex', 'o200k_base'],
  ['o1-preview', 'o200k_base'],
  ['o3', 'o200k_base'],
  ['o4-mini', 'o200k_base'],
  ['chatgpt-4o-latest', 'o200k_base'],
  ['gpt-oss-120b', 'o200k_base'],
  ['openai/gpt-4o', 'o200k_base'],
  ['openai:gpt-5-mini', 'o200k_base'],
  ['GPT-4O', 'o200k_base'],
  ['gpt-4', 'cl100k_base'],
  ['gpt-4-turbo', 'cl100k_base'],
  ['gpt-4-0613', 'cl100k_base'],
  ['gpt-3.5-turbo', 'cl100k_base'],
  ['gpt-35-turbo', 'cl100k_base'],
  ['openai/gpt-4-turbo', 'cl100k_base'],
  ['text-embedding-3-small', 'cl100k_base'],
  ['claude-sonnet-4-5', 'claude'],
  ['claude-3-5-haiku-20241022', 'claude'],
  ['anthropic/claude-3.5-sonnet', 'claude'],
  ['anthropic.claude-3-5-sonnet-20240620-v1:0', 'claude'],
  ['us.anthropic.claude-sonnet-4-20250514-v1:0', 'claude'],
  ['claude-3-5-sonnet-v2@20241022', 'claude'],
  ['gemini-2.5-pro', 'o200k_base+10%'],
  ['llama3.1:8b', 'o200k_base+10%'],
  ['mistral-large-latest', 'o200k_base+10%'],
  ['o1x', 'o200k_base+10%'],
  ['gpt-40', 'o200k_base+10%'],
];

describe('the model id picks the counting', () => {
  it.each(TABLE)('%s → %s', (model, counting) => {
    expect(modelCounting(model)).toBe(counting);
  });

  it('createTokenCounter({ model }) counts with the counting the model picks', () => {
    for (const [model, counting] of TABLE) {
      const counter = createTokenCounter(model === undefined ? {} : { model });
      expect(counter.encoding).toBe(counting);
    }
  });

  it('any other model counts o200k_base plus 10 %, rounded up', () => {
    const text = 'A budget is a promise about the model’s real tokens. '.repeat(20);
    const o200k = createTokenCounter({ model: 'gpt-4o' });
    const other = createTokenCounter({ model: 'gemini-2.5-pro' });
    expect(other.countText(text)).toBe(Math.ceil(o200k.countText(text) * 1.1));
    const message = { id: 'm', role: 'user' as const, content: text, createdAt: 0 };
    expect(other.countMessage(message)).toBe(Math.ceil(o200k.countMessage(message) * 1.1));
  });

  it.each([
    [42, 'a number'],
    ['', 'empty'],
    ['gpt 4o', 'a space'],
    ['claude-3\n', 'a newline'],
    ['x'.repeat(257), 'too long'],
  ] as const)(
    'a model id that is %j (%s) is a MemValidationError naming `model`',
    (model, _why) => {
      const check = () => createTokenCounter({ model: model as string });
      expect(check).toThrow(MemValidationError);
      expect(check).toThrow(expect.objectContaining({ field: 'model' }));
    },
  );
});
