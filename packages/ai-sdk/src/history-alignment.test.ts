import { describe, expect, it } from 'vitest';
import { alignHistory } from './history-alignment.ts';

/* Messages are single letters standing for fingerprints: u1 a1 u2 a2 ... as 'u1', 'a1', ... */
const ms = (text: string) => text.split(' ').filter((m) => m.length > 0);
const align = (prompt: string, stored: string, whole = false) =>
  alignHistory(ms(prompt), ms(stored), { whole });

describe('alignHistory', () => {
  it('a. a prompt that starts with the end of the stored conversation: the rest is new', () => {
    expect(align('u1 a1 u2', 'u1 a1')).toEqual({ rule: 'resent', keep: 2 });
    expect(align('u2', 'u1 a1 u2')).toEqual({ rule: 'resent', keep: 1 });
    expect(align('a2 t2 u3', 'u1 a1 u2 a2 t2')).toEqual({ rule: 'resent', keep: 2 });
  });

  it('b. stored messages the prompt leaves out stay; only what follows the newest is new', () => {
    // The ai 7 habit: the tool call and result of a loop are not re-sent.
    expect(align('u1 a1 u2', 'u1 c1 t1 a1')).toEqual({ rule: 'left-out', keep: 2 });
    // A client that filters tool messages out of a longer history.
    expect(align('u1 a1 u2 a2 u3', 'u1 c1 t1 a1 u2 c2 t2 a2')).toEqual({
      rule: 'left-out',
      keep: 4,
    });
  });

  it('c. an edited or regenerated message replaces the stored ones from the first difference on', () => {
    expect(align('u1 a1 x2', 'u1 a1 u2 a2')).toEqual({ rule: 'changed', keep: 2, replaceFrom: 2 });
    // A regenerate: the last answer dropped, its question re-sent.
    expect(align('u1 a1 u2', 'u1 a1 u2 a2')).toEqual({ rule: 'changed', keep: 3, replaceFrom: 3 });
    // An edited first message, with the rest re-sent: aligned from the conversation's start.
    expect(align('x1 a1 u2 a2 u3', 'u1 a1 u2 a2', true)).toEqual({
      rule: 'changed',
      keep: 0,
      replaceFrom: 0,
    });
    // A repeated exchange: the newest start replaces the fewest messages.
    expect(align('hi hello x', 'hi hello hi hello u a')).toEqual({
      rule: 'changed',
      keep: 2,
      replaceFrom: 4,
    });
  });

  it('c. aligns with the start only when the stored messages are the whole conversation', () => {
    expect(align('x1 a1 u2 a2 u3', 'u1 a1 u2 a2', false)).toEqual({ rule: 'new', keep: 0 });
  });

  it('d. one message in common is a coincidence, not evidence: everything is new', () => {
    expect(align('yes more', 'u1 a1 yes a2 u3 a3')).toEqual({ rule: 'new', keep: 0 });
    expect(align('x1 a1 y', 'u1 a1 u2 a2', true)).toEqual({ rule: 'new', keep: 0 });
    expect(align('u9', 'u1 a1')).toEqual({ rule: 'new', keep: 0 });
    expect(align('u1 a1', '')).toEqual({ rule: 'new', keep: 0 });
  });
});
