import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { runExample } from './test-support/run-example.ts';

describe('building-blocks.ts (the core README window example)', () => {
  it('hides the tool call together with its result, and counts the prompt', async () => {
    const { stdout } = await runExample('building-blocks', tmpdir());

    expect(JSON.parse(stdout)).toEqual({
      tokenCount: 30,
      prompt: [
        { role: 'user', content: 'Weather in Lisbon?' },
        { role: 'assistant', content: '18°C and sunny.' },
        { role: 'user', content: 'And in Porto, tomorrow?' },
      ],
    });
  });
});
