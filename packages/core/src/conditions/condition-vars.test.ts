import { describe, expect, it } from 'vitest';
import type { Interaction } from '../model/interaction.ts';
import type { CountedMessage } from '../model/message.ts';
import {
  MAX_METADATA_DEPTH,
  MAX_METADATA_VALUES,
  MetadataLimitError,
  toConditionMap,
} from './condition-value.ts';
import { interactionVars, messageVars } from './condition-vars.ts';

const user: CountedMessage = { id: 'u1', role: 'user', content: 'hi', createdAt: 1, tokenCount: 7 };

describe('messageVars', () => {
  it('gives defaults for absent optional fields and ints for counts', () => {
    const vars = messageVars(user);
    expect(vars).toMatchObject({
      role: 'user',
      name: '',
      toolName: '',
      isError: false,
      tokenCount: 7n,
    });
    expect(vars.content).toBe('hi');
    expect(vars.metadata).toEqual(new Map());
  });

  it('joins text parts into content and keeps tool fields', () => {
    const vars = messageVars({
      id: 't1',
      role: 'tool',
      content: [
        { type: 'text', text: 'line 1' },
        { type: 'image', image: 'https://x/y.png' },
        { type: 'text', text: 'line 2' },
      ],
      toolCallId: 'c1',
      toolName: 'search',
      isError: true,
      name: 'bot',
      createdAt: 2,
      tokenCount: 12.7,
    });
    expect(vars).toMatchObject({ toolName: 'search', isError: true, name: 'bot', tokenCount: 12n });
    expect(vars.content).toBe('line 1\nline 2');
  });
});

describe('interactionVars', () => {
  it('exposes index, counts, tool names and error flag', () => {
    const interaction: Interaction = {
      index: 3,
      messages: [user, { ...user, id: 'a1', role: 'assistant' }],
      tokenCount: 14,
      toolNames: ['search', 'sql'],
      hasError: true,
    };
    expect(interactionVars(interaction)).toMatchObject({
      index: 3n,
      messageCount: 2n,
      tokenCount: 14n,
      toolNames: ['search', 'sql'],
      hasError: true,
    });
  });
});

describe('toConditionMap', () => {
  it('converts JSON values: integral numbers to int, others to double, objects to maps', () => {
    const converted = toConditionMap(
      JSON.parse(
        '{"n": 3, "f": 1.5, "big": 1e300, "s": "x", "b": false, "z": null, "o": {"k": [1, "a"]}}',
      ),
    );
    expect(converted).toEqual(
      new Map<string, unknown>([
        ['n', 3n],
        ['f', 1.5],
        ['big', 1e300],
        ['s', 'x'],
        ['b', false],
        ['z', null],
        ['o', new Map([['k', [1n, 'a']]])],
      ]),
    );
  });

  it('drops what JSON cannot hold, without calling getters or methods', () => {
    let called = false;
    class Secret {
      toString(): string {
        called = true;
        return 'secret';
      }
    }
    const record: Record<string, unknown> = {
      fn: () => 1,
      sym: Symbol('s'),
      undef: undefined,
      inst: new Secret(),
      list: [undefined, () => 1],
      date: new Date(0),
      big: 2n ** 70n,
      map: new Map<unknown, unknown>([
        ['k', 1],
        [2, 'dropped'],
      ]),
    };
    Object.defineProperty(record, 'getter', {
      enumerable: true,
      get: () => {
        called = true;
        return 1;
      },
    });
    expect(toConditionMap(record)).toEqual(
      new Map<string, unknown>([
        ['list', [null, null]],
        ['date', '1970-01-01T00:00:00.000Z'],
        ['big', 2 ** 70],
        ['map', new Map([['k', 1n]])],
      ]),
    );
    expect(called).toBe(false);
  });

  it('keeps a JSON "__proto__" key as a plain key', () => {
    const converted = toConditionMap(JSON.parse('{"__proto__": {"polluted": true}}'));
    expect([...converted.keys()]).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it(`refuses metadata deeper than ${MAX_METADATA_DEPTH} levels, cycles included`, () => {
    let deep: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < MAX_METADATA_DEPTH; i++) deep = { deep };
    expect(() => toConditionMap(deep)).toThrow(MetadataLimitError);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => toConditionMap(cyclic)).toThrow(/nested deeper/);
  });

  it(`refuses metadata with more than ${MAX_METADATA_VALUES} values`, () => {
    expect(() =>
      toConditionMap({ list: Array.from({ length: MAX_METADATA_VALUES }, (_, i) => i) }),
    ).toThrow(/more than 1000 values/);
    expect(
      toConditionMap({ list: Array.from({ length: MAX_METADATA_VALUES - 1 }, (_, i) => i) }).size,
    ).toBe(1);
  });
});
