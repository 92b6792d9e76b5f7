import type { UserFact } from '@mem/core';
import { MAX_USER_FACT_LENGTH } from '@mem/core/backend';
import { summarySource } from '@mem/core/summarize';
import { describe, expect, it } from 'vitest';
import type { ChatResponse } from '../chat-model.ts';
import {
  checkOperations,
  type DroppedFactReason,
  type FactReplyOperation,
  parseFactReply,
} from './fact-reply.ts';

const reply = (
  text: string,
  finishReason: ChatResponse['finishReason'] = 'stop',
): ChatResponse => ({
  text,
  usage: { inputTokens: 1, outputTokens: 1 },
  finishReason,
});

const fact = (id: string, text: string, about?: string): UserFact => ({
  id,
  text,
  ...(about === undefined ? {} : { about }),
  sourceMessageIds: [],
  createdAt: 1,
  updatedAt: 1,
});

const FACTS = [fact('f1', 'Lives in Porto.', 'location'), fact('f2', 'Has a cat named Miso.')];
const EXCHANGE =
  '[1] user: I moved to Lisbon last week, and I am vegetarian now.\n[2] assistant: Noted!';

function check(operations: FactReplyOperation[], maxOperations = 5) {
  const dropped: [FactReplyOperation, DroppedFactReason][] = [];
  const ops = checkOperations({
    operations,
    facts: FACTS,
    messageIds: ['m-user', 'm-assistant'],
    source: summarySource(EXCHANGE),
    maxOperations,
    onDrop: (op, reason) => dropped.push([op, reason]),
  });
  return { ops, dropped };
}

describe('parseFactReply', () => {
  it('reads {"operations": [...]} of add, update and delete', () => {
    const parsed = parseFactReply(
      reply(
        JSON.stringify({
          operations: [
            { op: 'add', text: 'Is vegetarian.', about: 'diet', source: [1] },
            { op: 'update', id: 'f1', text: 'Lives in Lisbon.', source: [1] },
            { op: 'delete', id: 'f2' },
          ],
        }),
      ),
    );
    expect(parsed).toEqual({
      ok: true,
      value: {
        operations: [
          { op: 'add', text: 'Is vegetarian.', about: 'diet', source: [1] },
          { op: 'update', id: 'f1', text: 'Lives in Lisbon.', source: [1] },
          { op: 'delete', id: 'f2' },
        ],
      },
    });
  });

  it('tolerates a code fence, upper-case keys and op names, null about, a number id and string sources', () => {
    const text =
      'Here you go:\n```json\n{"Operations": [{"OP": "Add", "Text": "Is vegetarian.", "about": null, "source": ["1", 2]}, {"op": "delete", "id": 7}]}\n```';
    expect(parseFactReply(reply(text))).toEqual({
      ok: true,
      value: {
        operations: [
          { op: 'add', text: 'Is vegetarian.', source: [1, 2] },
          { op: 'delete', id: '7' },
        ],
      },
    });
  });

  it.each([
    ['prose without JSON', 'The user moved to Lisbon.', /no JSON object/],
    ['broken JSON', '{"operations": [{"op": "add", "text": "Is veg', /invalid JSON/],
    ['no operations array', '{"facts": ["Is vegetarian."]}', /schema mismatch/],
    ['an unknown op', '{"operations": [{"op": "merge", "id": "f1"}]}', /schema mismatch/],
    ['an update without id', '{"operations": [{"op": "update", "text": "x"}]}', /schema mismatch/],
  ])('calls %s malformed, saying why', (_, text, why) => {
    const parsed = parseFactReply(reply(text));
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error.message).toMatch(why);
  });

  it('calls a truncated or filtered reply malformed even when its JSON parses', () => {
    const json = '{"operations": []}';
    expect(parseFactReply(reply(json, 'length'))).toMatchObject({ ok: false });
    expect(parseFactReply(reply(json, 'content-filter'))).toMatchObject({ ok: false });
  });
});

describe('checkOperations', () => {
  it('keeps good operations, maps source numbers to message ids and trims texts', () => {
    const { ops, dropped } = check([
      { op: 'add', text: '  Is   vegetarian.\n', about: ' diet ', source: [1, 1, 9] },
      { op: 'update', id: 'f1', text: 'Lives in Lisbon.', source: [2, 1] },
      { op: 'delete', id: 'f2' },
    ]);
    expect(ops).toEqual([
      { op: 'add', text: 'Is vegetarian.', about: 'diet', sourceMessageIds: ['m-user'] },
      {
        op: 'update',
        id: 'f1',
        text: 'Lives in Lisbon.',
        sourceMessageIds: ['m-user', 'm-assistant'],
      },
      { op: 'delete', id: 'f2' },
    ]);
    expect(dropped).toEqual([]);
  });

  it('leaves sourceMessageIds out when no source number names a message (the engine defaults them)', () => {
    const { ops } = check([{ op: 'add', text: 'Is vegetarian.', source: [0, 3] }]);
    expect(ops).toEqual([{ op: 'add', text: 'Is vegetarian.' }]);
  });

  it('drops an update or delete naming a fact the user does not have, and a second operation on one fact', () => {
    const { ops, dropped } = check([
      { op: 'update', id: 'f9', text: 'Lives in Lisbon.' },
      { op: 'delete', id: 'fact-1' },
      { op: 'update', id: 'f1', text: 'Lives in Lisbon.' },
      { op: 'delete', id: 'f1' },
    ]);
    expect(ops).toEqual([{ op: 'update', id: 'f1', text: 'Lives in Lisbon.' }]);
    expect(dropped.map(([op, reason]) => [op.op, reason])).toEqual([
      ['update', 'unknown-id'],
      ['delete', 'unknown-id'],
      ['delete', 'repeated-id'],
    ]);
  });

  it.each([
    'fetch failed',
    'Error: 429 Too Many Requests',
    'Incorrect API key provided: sk-proj-abc123def456ghi789jkl012mno345',
    "I'm sorry, but I can't help with that.",
    '<html><body><h1>502 Bad Gateway</h1></body></html>',
  ])('drops a fact whose text is error or refusal text: %s', (text) => {
    const { ops, dropped } = check([
      { op: 'add', text },
      { op: 'update', id: 'f1', text },
    ]);
    expect(ops).toEqual([]);
    expect(dropped.map(([, reason]) => reason)).toEqual(['unusable-text', 'unusable-text']);
  });

  it.each([
    'Lives in Lisbon.',
    'Works as a server administrator at a bank.',
    'Cannot eat gluten.',
    'Wohnt in Berlin und arbeitet als Ärztin.',
    'Vit à Lyon avec sa fille Camille.',
    '東京に住んでいる。',
    'Предпочитает короткие ответы.',
  ])('keeps an ordinary fact: %s', (text) => {
    expect(check([{ op: 'add', text }]).ops).toEqual([{ op: 'add', text }]);
  });

  it('drops a blank text, and caps a long one at MAX_USER_FACT_LENGTH without splitting a character', () => {
    const long = `Likes ${'🍕'.repeat(MAX_USER_FACT_LENGTH)}`;
    const { ops, dropped } = check([
      { op: 'add', text: ' \n ' },
      { op: 'add', text: long },
    ]);
    expect(dropped.map(([, reason]) => reason)).toEqual(['empty-text']);
    const text = (ops[0] as { text: string }).text;
    expect(text.length).toBeLessThanOrEqual(MAX_USER_FACT_LENGTH);
    expect(text.length).toBeGreaterThan(MAX_USER_FACT_LENGTH - 2);
    expect(text.isWellFormed()).toBe(true);
  });

  it('keeps at most maxOperations, the first ones', () => {
    const { ops, dropped } = check(
      [
        { op: 'add', text: 'Is vegetarian.' },
        { op: 'add', text: 'Lives in Lisbon.' },
        { op: 'add', text: 'Has a cat.' },
      ],
      2,
    );
    expect(ops.map((o) => (o as { text: string }).text)).toEqual([
      'Is vegetarian.',
      'Lives in Lisbon.',
    ]);
    expect(dropped.map(([, reason]) => reason)).toEqual(['over-limit']);
  });
});
