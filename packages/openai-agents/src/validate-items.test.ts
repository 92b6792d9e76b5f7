import { createMemoryEngine, MemValidationError } from '@mem/core';
import type { AgentInputItem } from '@openai/agents';
import { afterEach, describe, expect, it } from 'vitest';
import { storeKinds } from './__fixtures__/store-kinds.ts';
import { MemAgentsSession } from './mem-agents-session.ts';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

const stores = storeKinds('items');

const png = 'data:image/png;base64,iVBORw0KGgo=';
/** One item of every kind the Agents SDK produces or accepts, plus a kind it may add later. */
const everyKind = [
  { type: 'message', role: 'system', content: 'Be brief.' },
  { role: 'user', content: 'Plain text from the user.' },
  {
    type: 'message',
    role: 'user',
    content: [
      { type: 'input_text', text: 'What is on this image and in this file?' },
      { type: 'input_image', image: png, detail: 'low' },
      { type: 'input_image', image: { id: 'file_img' } },
      { type: 'input_file', file: 'data:application/pdf;base64,JVBERi0=', filename: 'a.pdf' },
      { type: 'input_file', file: { url: 'https://example.com/b.pdf' } },
    ],
  },
  {
    type: 'reasoning',
    id: 'rs_1',
    content: [{ type: 'input_text', text: 'Look at the image first.' }],
    rawContent: [{ type: 'reasoning_text', text: 'raw thoughts' }],
    providerData: { encrypted_content: 'opaque' },
  },
  {
    type: 'function_call',
    id: 'fc_1',
    callId: 'call_1',
    name: 'describe',
    arguments: '{"detail":"high"}',
    status: 'completed',
  },
  {
    type: 'function_call_result',
    callId: 'call_1',
    name: 'describe',
    status: 'completed',
    output: { type: 'text', text: 'A cat.' },
  },
  { type: 'function_call', callId: 'call_2', name: 'draw', arguments: '{}' },
  {
    type: 'function_call_result',
    callId: 'call_2',
    name: 'draw',
    status: 'completed',
    output: [{ type: 'input_image', image: png }],
  },
  { type: 'function_call', callId: 'call_3', name: 'crop', arguments: '{}' },
  {
    type: 'function_call_result',
    callId: 'call_3',
    name: 'crop',
    status: 'incomplete',
    output: { type: 'image', image: png },
  },
  {
    type: 'hosted_tool_call',
    id: 'ws_1',
    name: 'web_search_call',
    status: 'completed',
    providerData: { action: { type: 'search', query: 'cats' } },
  },
  {
    type: 'computer_call',
    id: 'cu_1',
    callId: 'comp_1',
    status: 'completed',
    action: { type: 'click', x: 10, y: 20, button: 'left' },
  },
  {
    type: 'computer_call_result',
    callId: 'comp_1',
    output: { type: 'computer_screenshot', data: png },
  },
  {
    type: 'shell_call',
    callId: 'sh_1',
    status: 'completed',
    action: { commands: ['ls'] },
  },
  {
    type: 'shell_call_output',
    callId: 'sh_1',
    output: [{ stdout: 'a.txt\n', stderr: '', outcome: { type: 'exit', exitCode: 0 } }],
  },
  {
    type: 'message',
    role: 'assistant',
    status: 'completed',
    content: [
      { type: 'output_text', text: 'It is a cat.' },
      { type: 'refusal', refusal: 'I will not identify the person.' },
    ],
  },
  { type: 'compaction', encrypted_content: 'opaque-compaction' },
  { type: 'unknown', providerData: { kind: 'vendor-specific' } },
  { type: 'mcp_approval_request', id: 'a_1', server_label: 'files', arguments: '{}' },
] as AgentInputItem[];

/** The error `addItems(items)` rejects with, checked to be a MemValidationError. */
async function refusal(items: unknown[]): Promise<MemValidationError> {
  const engine = createMemoryEngine({ profile: {} });
  const session = new MemAgentsSession({ engine, sessionId: 's' });
  const error = await session.addItems(items as AgentInputItem[]).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MemValidationError);
  expect((await engine.session('s').messages()).length).toBe(0);
  const e = error as MemValidationError;
  expect(e.message).toMatch(/^\[mem\/openai-agents\] addItems\(items\): /);
  expect(e.message).toContain('nothing of this batch was stored');
  return e;
}

const hi = { role: 'user', content: 'Hi' };

describe('addItems refuses malformed items, naming the item and field, and stores nothing', () => {
  it('refuses null and undefined items as not being item objects', async () => {
    const nul = await refusal([hi, null]);
    expect(nul.field).toBe('items[1]');
    expect(nul.message).toContain('items[1] must be an Agents SDK item object');
    expect((await refusal([undefined])).field).toBe('items[0]');
  });

  it('refuses a string item instead of storing it as an assistant message', async () => {
    const e = await refusal(['hello']);
    expect(e.field).toBe('items[0]');
    expect(e.message).toContain('got a string');
  });

  it('refuses an item holding a function, naming its path', async () => {
    const e = await refusal([hi, { ...hi, providerData: { onDone: () => 1 } }]);
    expect(e.field).toBe('items[1].providerData.onDone');
    expect(e.message).toContain('a function is not JSON data');
  });

  it('refuses symbols, bigints, class instances, cycles and non-finite numbers', async () => {
    const cycle: Record<string, unknown> = { ...hi };
    cycle.providerData = { self: cycle };
    const fields = [
      (await refusal([{ ...hi, providerData: { s: Symbol('x') } }])).field,
      (await refusal([{ ...hi, providerData: { n: 10n } }])).field,
      (await refusal([{ ...hi, providerData: { at: new Date(0) } }])).field,
      (await refusal([cycle])).field,
      (await refusal([{ ...hi, providerData: { x: Number.NaN } }])).field,
    ];
    expect(fields).toEqual([
      'items[0].providerData.s',
      'items[0].providerData.n',
      'items[0].providerData.at',
      'items[0].providerData.self',
      'items[0].providerData.x',
    ]);
  });

  it('refuses a function_call without callId, and one without arguments', async () => {
    const noId = await refusal([{ type: 'function_call', name: 'lookup', arguments: '{}' }]);
    expect(noId.field).toBe('items[0].callId');
    expect(noId.message).toContain('a function_call item needs callId, name and arguments');
    const noArgs = await refusal([hi, { type: 'function_call', callId: 'c1', name: 'lookup' }]);
    expect(noArgs.field).toBe('items[1].arguments');
    const emptyId = await refusal([
      { type: 'function_call', callId: '', name: 'x', arguments: '' },
    ]);
    expect(emptyId.field).toBe('items[0].callId');
  });

  it('refuses a function_call_result without callId or output', async () => {
    const e = await refusal([{ type: 'function_call_result', name: 'x', status: 'completed' }]);
    expect(e.field).toMatch(/^items\[0\]\.(callId|output)$/);
    expect(e.message).toContain(
      'a function_call_result item needs callId, name, status and output',
    );
  });

  it("refuses role 'hacker' instead of storing it as an assistant message", async () => {
    const e = await refusal([{ role: 'hacker', content: 'sudo' }]);
    expect(e.field).toBe('items[0].role');
    expect(e.message).toContain(`got "hacker"`);
  });

  it('refuses content 42 and content null instead of storing an empty text', async () => {
    const number = await refusal([{ role: 'user', content: 42 }]);
    expect(number.field).toBe('items[0].content');
    expect(number.message).toContain('a user message is');
    expect((await refusal([{ role: 'system', content: null }])).field).toBe('items[0].content');
    const assistant = await refusal([{ role: 'assistant', content: 'Hi!' }]);
    expect(assistant.message).toContain("an assistant message is { role: 'assistant', status");
  });

  it('refuses a type that is not a string, and an item that is an array', async () => {
    expect((await refusal([{ type: 7 }])).field).toBe('items[0].type');
    expect((await refusal([[hi]])).field).toBe('items[0]');
  });

  it('refuses a whole batch when its last item is bad: the good ones are not stored', async () => {
    const e = await refusal([hi, { role: 'assistant', status: 'completed', content: [] }, 'oops']);
    expect(e.field).toBe('items[2]');
  });

  it('refuses an item whose getter throws, as a MemValidationError', async () => {
    const hostile = Object.defineProperty({ role: 'user' }, 'content', {
      enumerable: true,
      get() {
        throw new TypeError('hostile getter');
      },
    });
    const e = await refusal([hostile]);
    expect(e.field).toBe('items[0]');
    expect(e.cause).toBeInstanceOf(TypeError);
  });
});

describe.each(stores)('valid items of every kind round-trip on the %s', (_, openStore) => {
  it('stores and returns each item exactly, and a batch with one broken copy adds nothing', async () => {
    const engine = createMemoryEngine({ profile: {}, store: openStore() });
    const session = new MemAgentsSession({ engine, sessionId: 'kinds' });
    await session.addItems(everyKind);
    expect(await session.getItems()).toStrictEqual(everyKind);
    const stored = await engine.session('kinds').messages();
    expect(stored.map((m) => m.role)).toEqual([
      'system',
      'user',
      'user',
      'assistant',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'assistant',
      'assistant',
      'assistant',
      'assistant',
      'assistant',
      'assistant',
      'assistant',
      'assistant',
      'assistant',
    ]);
    expect(stored[9]).toMatchObject({ toolCallId: 'call_3', isError: true });
    const { callId: _dropped, ...broken } = everyKind[4] as { callId: string };
    await expect(
      session.addItems([...everyKind, broken as AgentInputItem, ...everyKind]),
    ).rejects.toMatchObject({
      name: 'MemValidationError',
      field: `items[${everyKind.length}].callId`,
    });
    expect(await engine.session('kinds').messages()).toHaveLength(stored.length);
  });
});
