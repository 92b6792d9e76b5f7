import { describe, expect, expectTypeOf, it } from 'vitest';
import { MemError } from '../../errors/mem-error.ts';
import { isValidPrompt } from '../../model/prompt-validity.ts';
import { createInMemoryStore } from '../../store/in-memory-store.ts';
import { addTurns } from './__fixtures__/turns.ts';
import type { CompressionResult, MemoryEntry } from './memory-entry.ts';
import { MemoryManager } from './memory-manager.ts';

const manual = () => new MemoryManager({ autoCompress: false });

describe('MemoryManager entries', () => {
  it('adds user and assistant messages as message entries', async () => {
    let clock = Date.UTC(2024, 0, 1, 9);
    const memory = new MemoryManager({ now: () => clock++ });
    const user = await memory.addUserMessage('s', 'Hello, how are you?');
    const assistant = await memory.addAssistantMessage('s', 'I am doing well!', {
      metadata: { model: 'gpt-x' },
    });
    expect(user).toEqual({
      id: expect.any(String),
      type: 'message',
      role: 'user',
      content: 'Hello, how are you?',
      timestamp: new Date(Date.UTC(2024, 0, 1, 9)),
      tokenCount: expect.any(Number),
      compressed: false,
    });
    expect(user.tokenCount).toBeGreaterThan(3);
    expect(assistant).toMatchObject({
      type: 'message',
      role: 'assistant',
      metadata: { model: 'gpt-x' },
    });
    expect(await memory.getActiveEntries('s')).toEqual([user, assistant]);
  });

  it('records a tool call with a generated id and its arguments as JSON text', async () => {
    const memory = manual();
    await memory.addUserMessage('s', 'list the files');
    const call = await memory.addToolCall('s', 'shell', { command: 'ls -la' });
    expect(call).toMatchObject({
      type: 'tool_call',
      role: 'assistant',
      content: '{"command":"ls -la"}',
      metadata: { toolName: 'shell', toolCallId: expect.stringMatching(/^call_/) },
    });
    const other = await memory.addToolCall('s', 'shell', { command: 'pwd' });
    expect(other.metadata?.toolCallId).not.toBe(call.metadata?.toolCallId);
  });

  it('answers the newest unanswered call of the tool', async () => {
    const memory = manual();
    await memory.addUserMessage('s', 'do things');
    const first = await memory.addToolCall('s', 'shell', { command: 'ls' });
    const read = await memory.addToolCall('s', 'read_file', { path: 'a.ts' });
    const second = await memory.addToolCall('s', 'shell', { command: 'pwd' });
    const r1 = await memory.addToolResult('s', 'shell', '/home');
    const r2 = await memory.addToolResult('s', 'shell', 'a.ts b.ts');
    const r3 = await memory.addToolResult('s', 'read_file', 'export {}');
    expect(r1).toMatchObject({
      type: 'tool_result',
      role: 'system',
      content: '/home',
      metadata: { toolName: 'shell', toolCallId: second.metadata?.toolCallId, isError: false },
    });
    expect(r2.metadata?.toolCallId).toBe(first.metadata?.toolCallId);
    expect(r3.metadata?.toolCallId).toBe(read.metadata?.toolCallId);
  });

  it('marks failed tool results, by option or by metadata', async () => {
    const memory = manual();
    await memory.addUserMessage('s', 'run it');
    await memory.addToolCall('s', 'shell', { command: 'make' });
    await memory.addToolCall('s', 'shell', { command: 'make test' });
    const byOption = await memory.addToolResult('s', 'shell', 'exit 2', { isError: true });
    const byMetadata = await memory.addToolResult('s', 'shell', 'exit 1', {
      metadata: { isError: true, exitCode: 1 },
    });
    expect(byOption.metadata).toMatchObject({ isError: true });
    expect(byMetadata.metadata).toEqual({
      exitCode: 1,
      toolName: 'shell',
      toolCallId: expect.any(String),
      isError: true,
    });
    expect(await memory.getContextForLLM('s')).toContain('Tool error (shell): exit 2');
  });

  it('stores a result with no open call, and leaves it out of the LLM context', async () => {
    const memory = manual();
    await memory.addUserMessage('s', 'hi');
    const orphan = await memory.addToolResult('s', 'shell', 'stray output');
    await memory.addAssistantMessage('s', 'hello');
    expect(orphan.metadata?.toolCallId).toEqual(expect.stringMatching(/^call_/));
    expect((await memory.getActiveEntries('s')).map((e) => e.id)).toContain(orphan.id);
    const context = await memory.getContextForLLM('s');
    expect(context).not.toContain('stray output');
    expect(context).toContain('Assistant: hello');
  });

  it('adds context as a compressible system entry naming its source', async () => {
    const memory = manual();
    const file = await memory.addContext('s', 'export const x = 1;', 'src/main.ts');
    const bare = await memory.addContext('s', 'The user prefers TypeScript.');
    const pinned = await memory.addContext('s', 'Never delete files.', 'rules.md', {
      pinned: true,
    });
    expect(file).toMatchObject({
      type: 'context',
      role: 'system',
      metadata: { source: 'src/main.ts' },
    });
    expect(bare.metadata).toBeUndefined();
    expect(pinned.metadata).toEqual({ source: 'rules.md', pinned: true });
  });

  it('rejects bad input with a MemValidationError naming the field', async () => {
    const memory = manual();
    const field = async (p: Promise<unknown>) => {
      const error = await p.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(MemError.hasCode(error, 'MEM_VALIDATION')).toBe(true);
      return (error as { field: string }).field;
    };
    expect(await field(memory.addUserMessage('', 'x'))).toBe('sessionId');
    expect(await field(memory.addUserMessage('s', 42 as never))).toBe('content');
    expect(await field(memory.addToolCall('s', '', {}))).toBe('toolName');
    expect(await field(memory.addToolCall('s', 'shell', undefined))).toBe('args');
    expect(await field(memory.addToolCall('s', 'shell', { n: 1n }))).toBe('args');
    expect(await field(memory.addContext('s', 'x', 7 as never))).toBe('source');
    expect(await field(memory.addUserMessage('s', 'x', { metadata: { when: new Date() } }))).toBe(
      'metadata.when',
    );
    expect(await memory.getActiveEntries('s')).toEqual([]);
  });

  it('keeps sessions apart', async () => {
    const memory = manual();
    await memory.addUserMessage('a', 'for a');
    await memory.addUserMessage('b', 'for b');
    expect((await memory.getActiveEntries('a')).map((e) => e.content)).toEqual(['for a']);
    expect((await memory.getActiveEntries('b')).map((e) => e.content)).toEqual(['for b']);
  });

  it('keeps entries in call order when adds are not awaited one by one', async () => {
    const memory = manual();
    await Promise.all(Array.from({ length: 20 }, (_, i) => memory.addUserMessage('s', `m${i}`)));
    expect((await memory.getActiveEntries('s')).map((e) => e.content)).toEqual(
      Array.from({ length: 20 }, (_, i) => `m${i}`),
    );
  });

  it('writes to the store it is given', async () => {
    const store = createInMemoryStore();
    const memory = new MemoryManager({ store });
    const entry = await memory.addUserMessage('s', 'persist me');
    expect(memory.store).toBe(store);
    expect((await store.read('s')).messages.map((m) => m.id)).toEqual([entry.id]);
    expect(await new MemoryManager({ store }).getActiveEntries('s')).toEqual([entry]);
  });
});

describe('MemoryManager context, stats and clearing', () => {
  it('formats the context as in the seed: summaries, then the recent conversation', async () => {
    const memory = new MemoryManager({
      autoCompress: false,
      recentWindow: 2,
      minEntriesToCompress: 1,
    });
    await memory.addUserMessage('s', 'Let us design the API.');
    await memory.addAssistantMessage('s', 'Sure: REST with /v1 routes.');
    await memory.addUserMessage('s', 'How do I add auth?');
    await memory.addAssistantMessage('s', 'You can use JWT...');
    expect(await memory.getContextForLLM('s')).toBe(
      [
        '=== Recent Conversation ===',
        'User: Let us design the API.',
        'Assistant: Sure: REST with /v1 routes.',
        'User: How do I add auth?',
        'Assistant: You can use JWT...',
      ].join('\n'),
    );
    const { summary } = (await memory.compress('s'))!;
    const day = summary.timeRange.start.toISOString().slice(0, 10);
    expect(await memory.getContextForLLM('s')).toBe(
      [
        '=== Previous Conversation Summaries ===',
        `[${day} - ${summary.timeRange.end.toISOString().slice(0, 10)}]`,
        summary.content,
        '',
        '=== Recent Conversation ===',
        'User: How do I add auth?',
        'Assistant: You can use JWT...',
      ].join('\n'),
    );
    expect(summary.content).not.toContain('Summary of the earlier conversation');
  });

  it('renders tool calls, results and context, and is empty for an empty session', async () => {
    const memory = manual();
    expect(await memory.getContextForLLM('empty')).toBe('');
    await memory.addContext('s', 'const a = 1;', 'a.ts');
    await memory.addUserMessage('s', 'list');
    await memory.addToolCall('s', 'shell', { command: 'ls' });
    await memory.addToolResult('s', 'shell', 'a.ts');
    await memory.addAssistantMessage('s', 'One file.');
    expect(await memory.getContextForLLM('s')).toBe(
      [
        '=== Recent Conversation ===',
        'Context (a.ts): const a = 1;',
        'User: list',
        'Tool call: shell({"command":"ls"})',
        'Tool result (shell): a.ts',
        'Assistant: One file.',
      ].join('\n'),
    );
  });

  it('reports stats of active and compressed entries', async () => {
    const memory = new MemoryManager({
      autoCompress: false,
      recentWindow: 4,
      minEntriesToCompress: 1,
    });
    expect(await memory.getStats('s')).toEqual({
      totalEntries: 0,
      activeEntries: 0,
      compressedEntries: 0,
      summaries: 0,
      totalTokens: 0,
      activeTokens: 0,
    });
    await addTurns(memory, 's', 3);
    const before = await memory.getStats('s');
    expect(before).toMatchObject({
      totalEntries: 12,
      activeEntries: 12,
      compressedEntries: 0,
      summaries: 0,
    });
    expect(before.totalTokens).toBe(before.activeTokens);
    const { summary } = (await memory.compress('s'))!;
    const after = await memory.getStats('s');
    const active = await memory.getActiveEntries('s');
    expect(after).toEqual({
      totalEntries: 13,
      activeEntries: 5,
      compressedEntries: 8,
      summaries: 1,
      totalTokens: before.totalTokens + summary.tokenCount,
      activeTokens: active.reduce((s, e) => s + e.tokenCount, 0),
    });
    expect(active[0]).toMatchObject({
      id: summary.id,
      type: 'summary',
      role: 'system',
      compressed: false,
    });
  });

  it('clears a session and says so', async () => {
    const memory = manual();
    const cleared: string[] = [];
    memory.on('session:cleared', (id) => cleared.push(id));
    await addTurns(memory, 's', 2);
    await memory.addUserMessage('other', 'stays');
    expect(await memory.clearSession('s')).toBe(true);
    expect(cleared).toEqual(['s']);
    expect(await memory.getActiveEntries('s')).toEqual([]);
    expect((await memory.getStats('s')).totalEntries).toBe(0);
    expect(await memory.getActiveEntries('other')).toHaveLength(1);
    expect(await memory.clearSession('s')).toBe(false);
    await memory.addUserMessage('s', 'fresh start');
    expect(await memory.getContextForLLM('s')).toBe(
      '=== Recent Conversation ===\nUser: fresh start',
    );
  });
});

describe('MemoryManager events', () => {
  it('emits entry:added with the entry; off and the returned function remove listeners', async () => {
    const memory = manual();
    const seen: Array<[string, MemoryEntry]> = [];
    const listener = (id: string, entry: MemoryEntry) => seen.push([id, entry]);
    memory.on('entry:added', listener);
    const other: string[] = [];
    const stop = memory.on('entry:added', (_id, entry) => other.push(entry.type));
    const entry = await memory.addUserMessage('s', 'one');
    expect(seen).toEqual([['s', entry]]);
    stop();
    memory.off('entry:added', listener);
    await memory.addToolCall('s', 'shell', {});
    expect(seen).toHaveLength(1);
    expect(other).toEqual(['message']);
  });

  it('types each listener by its event', () => {
    const memory = manual();
    memory.on('entry:added', (sessionId, entry) => {
      expectTypeOf(sessionId).toEqualTypeOf<string>();
      expectTypeOf(entry).toEqualTypeOf<MemoryEntry>();
    });
    memory.on('compressed', (_sessionId, result) => {
      expectTypeOf(result).toEqualTypeOf<CompressionResult>();
      expectTypeOf(result.tokensSaved).toEqualTypeOf<number>();
    });
    memory.on('session:cleared', (sessionId) => expectTypeOf(sessionId).toEqualTypeOf<string>());
    memory.on('compress:failed', (_sessionId, error) =>
      expectTypeOf(error).toEqualTypeOf<unknown>(),
    );
    memory.on('summarizer:fallback', (_sessionId, reason) =>
      expectTypeOf(reason).toEqualTypeOf<
        'none-configured' | 'timeout' | 'error' | 'unusable' | 'aborted'
      >(),
    );
    // @ts-expect-error: not an event of the manager
    memory.on('compacted', () => {});
    // @ts-expect-error: entry:added listeners get an entry, not a number
    memory.on('entry:added', (_id: string, _entry: number) => {});
  });

  it('a throwing listener breaks neither the add nor other listeners', async () => {
    const memory = manual();
    const seen: string[] = [];
    memory.on('entry:added', () => {
      throw new Error('listener bug');
    });
    memory.on('entry:added', (_id, e) => seen.push(e.content));
    await memory.addUserMessage('s', 'still added');
    expect(seen).toEqual(['still added']);
  });

  it('the context stays a valid prompt whatever was added', async () => {
    const memory = manual();
    await memory.addAssistantMessage('s', 'greeting before any user message');
    await memory.addUserMessage('s', 'go');
    await memory.addToolCall('s', 'shell', { command: 'ls' }); // never answered
    await memory.addToolResult('s', 'read_file', 'orphan');
    await memory.addAssistantMessage('s', 'done');
    const context = await memory.getContextForLLM('s');
    expect(context).toBe(
      '=== Recent Conversation ===\nAssistant: greeting before any user message\nUser: go\nAssistant: done',
    );
    const stored = await memory.store.read('s');
    expect(isValidPrompt(stored.messages)).toBe(false); // history keeps everything; the prompt does not
  });
});

describe('MemoryManager metadata depth', () => {
  const nest = (levels: number): Record<string, unknown> => {
    let value: Record<string, unknown> = { leaf: 1 };
    for (let i = 1; i < levels; i++) value = { a: value };
    return value;
  };

  it('takes what the store takes (64 levels below the entry) and names the path of one more', async () => {
    const memory = manual();
    // metadata is level 1 of a stored message: 64 nested objects, metadata included, reach 64.
    await memory.addUserMessage('s', 'deep', { metadata: nest(64) });
    const error = await memory
      .addUserMessage('s', 'deeper', { metadata: nest(65) })
      .catch((e: unknown) => e);
    expect(MemError.hasCode(error, 'MEM_VALIDATION')).toBe(true);
    expect((error as Error).message).toMatch(/^\[mem\/store\] metadata\.a\.a/);
    expect((await memory.getActiveEntries('s')).map((e) => e.content)).toEqual(['deep']);
  });
});
