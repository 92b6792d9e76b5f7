import { describe, expect, it } from 'vitest';
import { progressBar } from './progress-bar.ts';

const stream = (isTTY: boolean) => {
  const writes: string[] = [];
  return { writes, isTTY, columns: 60, write: (text: string) => writes.push(text) };
};

describe('progressBar', () => {
  it('redraws one line in place on a terminal, always drawing the last step, then clears it', () => {
    const out = stream(true);
    const bar = progressBar(out, 'replaying', 1_000_000);
    bar.update(1, 4);
    bar.update(2, 4); // throttled
    bar.update(4, 4);
    bar.done();
    expect(out.writes).toHaveLength(3);
    expect(out.writes[0]).toMatch(/^\rreplaying [█░]+ {2}25% 1\/4$/);
    expect(out.writes[1]).toMatch(/^\rreplaying █+ 100% 4\/4$/);
    expect(out.writes[1]!.length).toBeLessThanOrEqual(60);
    expect(out.writes[2]).toBe('\r\u001b[2K');
  });

  it('prints nothing off a terminal', () => {
    const out = stream(false);
    const bar = progressBar(out, 'replaying');
    bar.update(1, 1);
    bar.done();
    expect(out.writes).toEqual([]);
  });
});
