import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ConversationFileError } from './conversation-error.ts';
import { detectFormat } from './detect-format.ts';
import { DEFAULT_START, loadConversation } from './load-conversation.ts';

const examples = (name: string) =>
  fileURLToPath(new URL(`../../../../packages/core/examples/${name}`, import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'playground-conv-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const write = (name: string, content: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
};
const failure = async (path: string): Promise<ConversationFileError> => {
  const error = await loadConversation(path).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!ConversationFileError.isInstance(error))
    throw new Error(`expected a ConversationFileError, got ${error}`);
  expect(error.message).toContain(path);
  return error;
};

describe('loadConversation: the project format', () => {
  it('reads mem.conversation.v1 sessions as they are', async () => {
    const c = await loadConversation(examples('support-desk.conversation.json'));
    expect(c.title).toBe('Brightwell Freight operations desk, 9–20 March 2026');
    expect(c.sessions.map((s) => s.id)).toEqual([
      's1-hamburg-damage',
      's2-carrier-decision',
      's3-follow-ups',
      's4-carrier-review',
    ]);
    expect(c.sessions[0]!.messages[0]).toMatchObject({
      id: 's1-m001',
      role: 'system',
      createdAt: 1773042000000,
    });
    const tool = c.sessions[0]!.messages.find((m) => m.isError === true)!;
    expect(tool).toMatchObject({ role: 'tool', toolName: 'get_shipment_status' });
  });

  it('reads the older single-session form as one session', async () => {
    const c = await loadConversation(examples('conversation.json'));
    expect(c.sessions).toHaveLength(1);
    expect(c.sessions[0]!.messages).toHaveLength(33);
    expect(c.sessions[0]!.messages[2]!.toolCalls?.[0]?.name).toBe('search_orders');
  });

  it('gives messages without id or createdAt deterministic ones, a day per session', async () => {
    const path = write('bare.json', {
      format: 'mem.conversation.v1',
      sessions: [
        {
          id: 'mon',
          messages: [
            { role: 'user', content: 'hi' },
            { role: 'assistant', content: 'hello', createdAt: DEFAULT_START + 5 * 60_000 },
            { role: 'user', content: 'bye' },
          ],
        },
        { id: 'tue', messages: [{ role: 'user', content: 'again' }] },
      ],
    });
    const a = await loadConversation(path);
    expect(await loadConversation(path)).toEqual(a);
    expect(a.title).toBe('bare');
    expect(a.sessions[0]!.messages.map((m) => [m.id, m.createdAt - DEFAULT_START])).toEqual([
      ['mon-m001', 0],
      ['mon-m002', 5 * 60_000],
      ['mon-m003', 6 * 60_000],
    ]);
    expect(a.sessions[1]!.messages[0]).toMatchObject({
      id: 'tue-m001',
      createdAt: DEFAULT_START + 86_400_000,
    });
  });
});

describe('loadConversation: provider transcripts', () => {
  const openai = [
    { role: 'system', content: 'You are Juno.' },
    { role: 'user', content: 'Open orders in Lisbon?' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: 'call_1',
          type: 'function',
          function: { name: 'search_orders', arguments: '{"city":"Lisbon"}' },
        },
      ],
    },
    { role: 'tool', tool_call_id: 'call_1', content: '{"orders":["AF-1042"]}' },
    { role: 'assistant', content: 'One: AF-1042.' },
  ];

  it('reads an OpenAI Chat Completions request and a bare messages array alike', async () => {
    const fromObject = await loadConversation(
      write('openai.json', { model: 'gpt-4o', messages: openai }),
    );
    const fromArray = await loadConversation(write('openai-array.json', openai));
    expect(fromObject.sessions[0]!.messages).toEqual(fromArray.sessions[0]!.messages);
    const messages = fromObject.sessions[0]!.messages;
    expect(messages.map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'assistant',
    ]);
    expect(messages.map((m) => m.id)).toEqual(['m0001', 'm0002', 'm0003', 'm0004', 'm0005']);
    expect(messages[2]!.toolCalls).toEqual([
      { id: 'call_1', name: 'search_orders', arguments: '{"city":"Lisbon"}' },
    ]);
    expect(messages[3]).toMatchObject({ toolCallId: 'call_1', toolName: 'search_orders' });
    expect(messages[4]!.createdAt - messages[0]!.createdAt).toBe(4 * 60_000);
    expect(fromObject.title).toBe('openai');
  });

  it('reads an Anthropic Messages request, system prompt and tool blocks included', async () => {
    const c = await loadConversation(
      write('anthropic.json', {
        title: 'Lisbon orders',
        system: 'You are Juno.',
        messages: [
          { role: 'user', content: 'Open orders in Lisbon?' },
          {
            role: 'assistant',
            content: [
              { type: 'tool_use', id: 'toolu_1', name: 'search_orders', input: { city: 'Lisbon' } },
            ],
          },
          {
            role: 'user',
            content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'AF-1042' }],
          },
          { role: 'assistant', content: 'One: AF-1042.' },
        ],
      }),
    );
    expect(c.title).toBe('Lisbon orders');
    const messages = c.sessions[0]!.messages;
    expect(messages.map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'assistant',
    ]);
    expect(messages[2]!.toolCalls?.[0]).toMatchObject({ id: 'toolu_1', name: 'search_orders' });
    expect(messages[3]).toMatchObject({ toolCallId: 'toolu_1', toolName: 'search_orders' });
  });

  it('detects the format from the most specific sign', () => {
    expect(detectFormat({ messages: [{ role: 'user', content: 'hi' }] })).toBe('openai');
    expect(
      detectFormat({ messages: [{ id: 'a', role: 'user', content: 'hi', createdAt: 1 }] }),
    ).toBe('mem');
    expect(
      detectFormat({
        messages: [
          { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'x', input: {} }] },
        ],
      }),
    ).toBe('anthropic');
    expect(detectFormat({ messages: [{ role: 'developer', content: 'x' }] })).toBe('openai');
    expect(detectFormat({ sessions: [] })).toBe('mem');
    expect(detectFormat({ rows: [] })).toBeUndefined();
    expect(detectFormat('text')).toBeUndefined();
  });
});

describe('loadConversation: bad files', () => {
  it('a missing file', async () => {
    expect((await failure(join(dir, 'nope.json'))).message).toMatch(/no such file/);
  });

  it('invalid JSON', async () => {
    expect((await failure(write('broken.json', '{"messages": ['))).message).toMatch(
      /not valid JSON/,
    );
  });

  it('a project file lists every bad path', async () => {
    const e = await failure(
      write('bad-mem.json', {
        format: 'mem.conversation.v1',
        sessions: [
          {
            id: 's',
            messages: [
              { role: 'wizard', content: 'x' },
              { role: 'user', content: 5 },
            ],
          },
        ],
      }),
    );
    expect(e.issues.map((i) => i.path)).toEqual([
      'sessions[0].messages[0].role',
      'sessions[0].messages[1].content',
    ]);
    expect(e.message).toContain('sessions[0].messages[0].role');
  });

  it('a wrong format version names the field', async () => {
    const e = await failure(
      write('v2.json', {
        format: 'mem.conversation.v2',
        messages: [{ role: 'user', content: 'x' }],
      }),
    );
    expect(e.issues.map((i) => i.path)).toEqual(['format']);
  });

  it('JSON that holds no conversation, or no user message', async () => {
    expect((await failure(write('rows.json', { rows: [] }))).message).toMatch(
      /holds no conversation/,
    );
    expect(
      (await failure(write('quiet.json', [{ role: 'system', content: 'x' }]))).message,
    ).toMatch(/no user message/);
  });

  it('duplicate ids across sessions', async () => {
    const e = await failure(
      write('dupes.json', {
        sessions: [
          { id: 'a', messages: [{ id: 'm1', role: 'user', content: 'x' }] },
          { id: 'b', messages: [{ id: 'm1', role: 'user', content: 'y' }] },
        ],
      }),
    );
    expect(e.issues).toEqual([
      {
        path: 'sessions[1].messages[0].id',
        message: 'duplicate id "m1" (also sessions[0].messages[0].id)',
      },
    ]);
  });

  it('an OpenAI transcript the converter rejects, with the path of the bad message', async () => {
    const e = await failure(
      write('bad-openai.json', [
        { role: 'user', content: 'x' },
        { role: 'tool', content: 'y' },
      ]),
    );
    expect(e.message).toMatch(
      /OpenAI Chat Completions transcript but is not valid: .*messages\[1\]/,
    );
  });
});
