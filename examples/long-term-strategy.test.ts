import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { runExample } from './test-support/run-example.ts';

describe('long-term-strategy.ts (a strategy of your own, registered by id)', () => {
  it('erases all but the kept turns once its trigger fires', async () => {
    const { stdout } = await runExample('long-term-strategy', tmpdir());

    expect(JSON.parse(stdout)).toEqual([
      'Weather in Paris?',
      'Sunny in Paris.',
      'Weather in Rome?',
      'Sunny in Rome.',
    ]);
  });
});
