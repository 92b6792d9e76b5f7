import { describe, expect, it } from 'vitest';
import { MAX_USER_FACTS, type UserFact } from '../store/store-spec.ts';
import { applyFactOperations, checkFactOperations } from './fact-operations.ts';

let next = 0;
const source = {
  sessionId: 's2',
  messageIds: ['u1', 'a1'],
  defaultSourceIds: ['u1'],
  now: 500,
  newId: () => String(++next),
};
const fact = (id: string, text: string, about?: string, updatedAt = 100): UserFact => ({
  id,
  text,
  ...(about === undefined ? {} : { about }),
  sessionId: 's1',
  sourceMessageIds: ['old'],
  createdAt: 100,
  updatedAt,
});

describe('applying fact operations', () => {
  it('an add about the same thing updates that fact, keeping its id and createdAt', () => {
    const out = applyFactOperations(
      [fact('f1', 'Lives in Lisbon.', 'home')],
      [{ op: 'add', text: 'Lives in Porto.', about: 'home' }],
      source,
    );
    expect(out.facts).toEqual([
      {
        id: 'f1',
        text: 'Lives in Porto.',
        about: 'home',
        sessionId: 's2',
        sourceMessageIds: ['u1'],
        createdAt: 100,
        updatedAt: 500,
      },
    ]);
    expect(out).toMatchObject({ added: [], updated: ['f1'], deleted: [] });
  });

  it('skips updates and deletes of unknown ids, and adds of a text already held', () => {
    const current = [fact('f1', 'Has a dog.')];
    const out = applyFactOperations(
      current,
      [
        { op: 'update', id: 'nope', text: 'x' },
        { op: 'delete', id: 'nope' },
        { op: 'add', text: 'Has a dog.' },
      ],
      source,
    );
    expect(out.facts).toEqual(current);
    expect(out).toMatchObject({ added: [], updated: [], deleted: [] });
  });

  it('keeps only source ids of the interaction, else its user messages', () => {
    const out = applyFactOperations(
      [],
      [
        { op: 'add', text: 'A.', sourceMessageIds: ['a1', 'elsewhere'] },
        { op: 'add', text: 'B.', sourceMessageIds: ['elsewhere'] },
      ],
      source,
    );
    expect(out.facts.map((f) => f.sourceMessageIds)).toEqual([['a1'], ['u1']]);
  });

  it('over MAX_USER_FACTS, the least recently updated facts go', () => {
    const current = Array.from({ length: MAX_USER_FACTS }, (_, i) =>
      fact(`f${i}`, `Fact ${i}.`, undefined, 499 - i),
    );
    const out = applyFactOperations(current, [{ op: 'add', text: 'Newest.' }], source);
    expect(out.facts).toHaveLength(MAX_USER_FACTS);
    expect(out.deleted).toEqual([`f${MAX_USER_FACTS - 1}`]);
    expect(out.facts.at(-1)!.text).toBe('Newest.');
  });
});

describe('checking an extractor result', () => {
  it('normalizes whitespace and accepts the three operations', () => {
    const checked = checkFactOperations([
      { op: 'add', text: ' Lives\n in  Lisbon. ', about: ' home ' },
      { op: 'update', id: 'f1', text: 'Has two dogs.' },
      { op: 'delete', id: 'f2' },
    ]);
    expect(checked).toEqual({
      ok: true,
      operations: [
        { op: 'add', text: 'Lives in Lisbon.', about: 'home' },
        { op: 'update', id: 'f1', text: 'Has two dogs.' },
        { op: 'delete', id: 'f2' },
      ],
    });
  });

  it('says where a result is wrong', () => {
    const checked = checkFactOperations([{ op: 'update', id: '', text: 'ok' }]);
    expect(checked.ok).toBe(false);
    expect(checked.ok ? '' : checked.problem).toContain('result[0].id');
  });
});
