import type { Message } from '@mem/core';
import { describe, expect, it } from 'vitest';
import { planTurns, slugify } from './plan-turns.ts';

const m = (id: string, role: Message['role'], content: string): Message => ({
  id,
  role,
  content,
  createdAt: 0,
});

describe('planTurns', () => {
  it('one thread: repeated system prompts dropped, a changed one kept, replies grouped', () => {
    const turns = planTurns({
      title: 't',
      sessions: [
        {
          id: 'd1',
          title: 'day 1',
          messages: [
            m('a', 'system', 'S'),
            m('b', 'user', 'u1'),
            m('c', 'assistant', 'r1'),
            m('d', 'user', 'u2'),
          ],
        },
        {
          id: 'd2',
          title: 'day 2',
          messages: [m('e', 'system', 'S'), m('f', 'user', 'u3'), m('g', 'assistant', 'r3')],
        },
        {
          id: 'd3',
          title: 'day 3',
          messages: [m('h', 'system', 'S2'), m('i', 'assistant', 'hello'), m('j', 'user', 'u4')],
        },
      ],
    });
    expect(
      turns.map((t) => [t.day, t.before.map((x) => x.id), t.user.id, t.replies.map((x) => x.id)]),
    ).toEqual([
      ['d1', ['a'], 'b', ['c']],
      ['d1', [], 'd', []],
      ['d2', [], 'f', ['g']],
      ['d3', ['h', 'i'], 'j', []],
    ]);
  });

  it('sessions apart (a replay with a user): every session keeps its own system prompt', () => {
    const turns = planTurns(
      {
        title: 't',
        sessions: [
          { id: 'd1', title: 'day 1', messages: [m('a', 'system', 'S'), m('b', 'user', 'u1')] },
          {
            id: 'd2',
            title: 'day 2',
            messages: [m('e', 'system', 'S'), m('f', 'user', 'u3'), m('g', 'assistant', 'r3')],
          },
        ],
      },
      { sessionsApart: true },
    );
    expect(
      turns.map((t) => [t.day, t.before.map((x) => x.id), t.user.id, t.replies.map((x) => x.id)]),
    ).toEqual([
      ['d1', ['a'], 'b', []],
      ['d2', ['e'], 'f', ['g']],
    ]);
  });

  it('slugify makes a session id from a title', () => {
    expect(slugify('Brightwell Freight — 9–20 März 2026!')).toBe(
      'brightwell-freight-9-20-marz-2026',
    );
    expect(slugify('***')).toBe('conversation');
    expect(slugify('x'.repeat(100))).toHaveLength(64);
  });
});
