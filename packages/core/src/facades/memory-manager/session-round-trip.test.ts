import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createInMemoryStore } from '../../store/in-memory-store.ts';
import type { MemoryEntry } from './memory-entry.ts';
import { MemoryManager } from './memory-manager.ts';

type Op =
  | { kind: 'user' | 'assistant'; text: string; metadata: Record<string, unknown> | null }
  | { kind: 'call'; tool: string; args: Record<string, unknown> }
  | { kind: 'result'; tool: string; text: string; isError: boolean }
  | { kind: 'context'; text: string; source: string | null; pinned: boolean }
  | { kind: 'compress' };

const tool = fc.constantFrom('shell', 'read_file', 'write_file');
const text = fc.string({ maxLength: 40 });
const metadata = fc.option(
  fc.dictionary(
    fc.string({ minLength: 1, maxLength: 6 }),
    fc.oneof(fc.integer(), text, fc.boolean()),
    {
      maxKeys: 3,
    },
  ),
);
const op: fc.Arbitrary<Op> = fc.oneof(
  {
    arbitrary: fc.record({
      kind: fc.constantFrom('user' as const, 'assistant' as const),
      text,
      metadata,
    }),
    weight: 4,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('call' as const),
      tool,
      args: fc.dictionary(fc.string({ maxLength: 5 }), text, { maxKeys: 2 }),
    }),
    weight: 2,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('result' as const),
      tool,
      text,
      isError: fc.boolean(),
    }),
    weight: 2,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('context' as const),
      text,
      source: fc.option(fc.constantFrom('a.ts', 'README.md')),
      pinned: fc.boolean(),
    }),
    weight: 1,
  },
  { arbitrary: fc.record({ kind: fc.constant('compress' as const) }), weight: 1 },
);
const config = fc.record({
  autoCompress: fc.boolean(),
  maxEntries: fc.integer({ min: 4, max: 12 }),
  recentWindow: fc.integer({ min: 0, max: 5 }),
  minEntriesToCompress: fc.integer({ min: 1, max: 3 }),
});

async function run(
  memory: MemoryManager,
  sessionId: string,
  ops: readonly Op[],
): Promise<MemoryEntry[]> {
  const added: MemoryEntry[] = [];
  for (const o of ops) {
    if (o.kind === 'compress') await memory.compress(sessionId);
    else if (o.kind === 'call') added.push(await memory.addToolCall(sessionId, o.tool, o.args));
    else if (o.kind === 'result')
      added.push(await memory.addToolResult(sessionId, o.tool, o.text, { isError: o.isError }));
    else if (o.kind === 'context') {
      added.push(
        await memory.addContext(sessionId, o.text, o.source ?? undefined, { pinned: o.pinned }),
      );
    } else {
      const options = o.metadata === null ? {} : { metadata: o.metadata };
      added.push(
        o.kind === 'user'
          ? await memory.addUserMessage(sessionId, o.text, options)
          : await memory.addAssistantMessage(sessionId, o.text, options),
      );
    }
  }
  await memory.idle();
  return added;
}

const bare = ({ compressed: _c, summaryId: _s, ...rest }: MemoryEntry) => rest;

describe('exportSession / importSession', () => {
  it('round-trips exactly, into a fresh manager with another store, also through JSON', async () => {
    await fc.assert(
      fc.asyncProperty(config, fc.array(op, { maxLength: 40 }), async (cfg, ops) => {
        const memory = new MemoryManager(cfg);
        const added = await run(memory, 'session-1', ops);
        const state = await memory.exportSession('session-1');

        // Nothing is lost: every added entry is there, compressed or not.
        const byId = new Map(state.entries.map((e) => [e.id, e]));
        for (const entry of added) expect(bare(byId.get(entry.id)!)).toEqual(bare(entry));
        expect(state.entries.filter((e) => e.type !== 'summary')).toHaveLength(added.length);
        expect(state.totalTokens).toBe(state.entries.reduce((s, e) => s + e.tokenCount, 0));

        const fresh = new MemoryManager({ store: createInMemoryStore({ namespace: 'other' }) });
        await fresh.importSession(state);
        expect(await fresh.exportSession('session-1')).toStrictEqual(state);
        expect(await fresh.getContextForLLM('session-1')).toBe(
          await memory.getContextForLLM('session-1'),
        );
        expect(await fresh.getStats('session-1')).toEqual(await memory.getStats('session-1'));

        const viaJson = new MemoryManager();
        await viaJson.importSession(JSON.parse(JSON.stringify(state)));
        expect(await viaJson.exportSession('session-1')).toStrictEqual(state);

        // The imported session works like the original: more turns, another compression.
        await fresh.addUserMessage('session-1', 'one more question');
        await fresh.addAssistantMessage('session-1', 'one more answer');
        fresh.updateConfig({ recentWindow: 1, minEntriesToCompress: 1 });
        await fresh.compress('session-1');
        const later = await fresh.exportSession('session-1');
        expect(later.entries.filter((e) => e.type !== 'summary')).toHaveLength(added.length + 2);
      }),
      { numRuns: 60 },
    );
  });

  it('round-trips folded summaries, pinned context, failed tools and odd metadata keys', async () => {
    const memory = new MemoryManager({ maxEntries: 6, recentWindow: 3, minEntriesToCompress: 1 });
    await memory.addContext('s', 'Never delete files.', 'rules.md', { pinned: true });
    for (let i = 0; i < 6; i++) {
      await memory.addUserMessage('s', `step ${i}`, {
        metadata: JSON.parse(`{"__proto__":{"n":${i}}}`),
      });
      await memory.addToolCall('s', 'shell', { command: `make ${i}` });
      await memory.addToolResult('s', 'shell', `exit ${i % 2}`, { isError: i % 2 === 1 });
      await memory.addContext('s', `notes ${i}`, `notes-${i}.md`);
    }
    await memory.idle();
    const state = await memory.exportSession('s');
    expect(state.summaries.length).toBeGreaterThanOrEqual(2);
    expect(
      state.entries.filter((e) => e.type === 'summary' && e.compressed).length,
    ).toBeGreaterThanOrEqual(1);
    const fresh = new MemoryManager();
    await fresh.importSession(JSON.parse(JSON.stringify(state)));
    expect(await fresh.exportSession('s')).toStrictEqual(state);
    expect(await fresh.getContextForLLM('s')).toBe(await memory.getContextForLLM('s'));
  });

  it('exports every entry with its link, the summaries and the token total', async () => {
    const memory = new MemoryManager({
      autoCompress: false,
      recentWindow: 2,
      minEntriesToCompress: 1,
    });
    await memory.addUserMessage('s', 'first');
    await memory.addAssistantMessage('s', 'reply');
    await memory.addUserMessage('s', 'second');
    await memory.addAssistantMessage('s', 'reply 2');
    const { summary } = (await memory.compress('s'))!;
    const state = await memory.exportSession('s');
    expect(state.sessionId).toBe('s');
    expect(state.entries.map((e) => [e.content, e.compressed, e.summaryId])).toEqual([
      ['first', true, summary.id],
      ['reply', true, summary.id],
      [expect.stringContaining('Summary of the earlier conversation'), false, undefined],
      ['second', false, undefined],
      ['reply 2', false, undefined],
    ]);
    expect(state.summaries).toEqual([summary]);
    expect(await memory.exportSession('nobody')).toEqual({
      sessionId: 'nobody',
      entries: [],
      summaries: [],
      totalTokens: 0,
    });
  });

  it('replaces the session it imports into', async () => {
    const memory = new MemoryManager({ autoCompress: false });
    await memory.addUserMessage('s', 'original');
    const state = await memory.exportSession('s');
    await memory.addUserMessage('s', 'later');
    await memory.importSession(state);
    expect((await memory.getActiveEntries('s')).map((e) => e.content)).toEqual(['original']);
    await memory.addUserMessage('s', 'after import');
    expect((await memory.getActiveEntries('s')).map((e) => e.content)).toEqual([
      'original',
      'after import',
    ]);
  });

  it('imports a hand-built state: pairs tool results, totalTokens optional', async () => {
    const memory = new MemoryManager();
    const at = (m: number) => new Date(Date.UTC(2024, 0, 1, 0, m)).toISOString();
    await memory.importSession({
      sessionId: 'restored-session',
      entries: [
        {
          id: 'u1',
          type: 'message',
          role: 'user',
          content: 'list files',
          timestamp: at(0),
          tokenCount: 6,
          compressed: false,
        },
        {
          id: 'c1',
          type: 'tool_call',
          role: 'assistant',
          content: '{"command":"ls"}',
          timestamp: at(1),
          tokenCount: 12,
          compressed: false,
          metadata: { toolName: 'shell' },
        },
        {
          id: 'r1',
          type: 'tool_result',
          role: 'system',
          content: 'a.ts',
          timestamp: at(2),
          tokenCount: 5,
          compressed: false,
          metadata: { toolName: 'shell' },
        },
        {
          id: 'a1',
          type: 'message',
          role: 'assistant',
          content: 'One file: a.ts',
          timestamp: at(3),
          tokenCount: 8,
          compressed: false,
        },
      ],
      summaries: [],
    });
    const [, call, result] = await memory.getActiveEntries('restored-session');
    expect(result?.metadata?.toolCallId).toBe(call?.metadata?.toolCallId);
    expect(await memory.getContextForLLM('restored-session')).toContain(
      'Tool result (shell): a.ts',
    );
    expect((await memory.getStats('restored-session')).totalTokens).toBe(31);
  });

  it('keeps a pinned system prompt written through the store pinned across a round trip', async () => {
    const store = createInMemoryStore();
    await store.append(
      's',
      [{ id: 'sys', role: 'system', content: 'You are terse.', createdAt: 1, tokenCount: 7 }],
      { idempotencyKey: 'k' },
    );
    const memory = new MemoryManager({ store });
    const state = await memory.exportSession('s');
    expect(state.entries[0]).toMatchObject({
      type: 'context',
      role: 'system',
      metadata: { pinned: true },
    });
    const other = new MemoryManager();
    await other.importSession(state);
    expect((await other.store.read('s')).messages[0]).toEqual({
      id: 'sys',
      role: 'system',
      content: 'You are terse.',
      createdAt: 1,
      tokenCount: 7,
      seq: 1,
    });
  });
});

describe('importSession validation', () => {
  async function problems(state: unknown) {
    const memory = new MemoryManager();
    const error = await memory.importSession(state as never).then(
      () => undefined,
      (e: unknown) => e as { code: string; field: string; message: string },
    );
    expect(error?.code).toBe('MEM_VALIDATION');
    return error!;
  }

  async function exported() {
    const memory = new MemoryManager({
      autoCompress: false,
      recentWindow: 2,
      minEntriesToCompress: 1,
    });
    await memory.addUserMessage('s', 'q1');
    await memory.addToolCall('s', 'shell', { command: 'ls' });
    await memory.addToolResult('s', 'shell', 'a.ts');
    await memory.addUserMessage('s', 'q2');
    await memory.addAssistantMessage('s', 'a2');
    await memory.compress('s');
    return JSON.parse(JSON.stringify(await memory.exportSession('s')));
  }

  it('names each bad field of the schema', async () => {
    const state = await exported();
    state.entries[0].role = 'assistant';
    state.entries[1].timestamp = 'yesterday';
    state.entries[2].colour = 'red';
    state.summaries[0].tokenCount = -1;
    const error = await problems(state);
    expect(error.field).toBe('entries[1].timestamp');
    expect(error.message).toContain('entries[2]');
    expect(error.message).toContain('summaries[0].tokenCount');
    expect(error.message).toContain('[mem/core] importSession: invalid state');
  });

  it('names bad roles, tool names, links and totals', async () => {
    const state = await exported();
    state.entries[0].role = 'system';
    delete state.entries[1].metadata.toolName;
    state.totalTokens += 1;
    const error = await problems(state);
    expect(error.field).toBe('entries[0].role');
    expect(error.message).toContain('entries[1].metadata.toolName');
    expect(error.message).toContain('totalTokens');
  });

  it('rejects a broken link between entries and summaries', async () => {
    let state = await exported();
    state.entries[0].summaryId = 'summary_nope';
    expect((await problems(state)).message).toContain('entries[0].summaryId');
    state = await exported();
    state.entries[0].compressed = false;
    expect((await problems(state)).field).toBe('entries[0].summaryId');
    state = await exported();
    state.summaries = [];
    expect((await problems(state)).message).toMatch(
      /entries\[\d\]\.id: a summary entry has its MemorySummary/,
    );
    state = await exported();
    state.entries.push({ ...state.entries[0], id: 'copy' });
    expect((await problems(state)).message).toContain('entries[6].summaryId');
  });

  it('rejects entries out of conversation order, and a bad session id', async () => {
    let state = await exported(); // q1, call, result, summary, q2, a2
    expect(state.entries[3].type).toBe('summary');
    state.entries.splice(3, 0, ...state.entries.splice(4, 1)); // q2 between the originals and their summary
    const error = await problems(state);
    expect(error.field).toBe('entries[3]');
    expect(error.message).toContain('each summary right after the last entry it replaced');
    state = await exported();
    [state.entries[2], state.entries[3]] = [state.entries[3], state.entries[2]];
    expect((await problems(state)).field).toBe('summaries[0].originalEntryIds[2]');
    state = await exported();
    state.sessionId = '';
    expect((await problems(state)).field).toBe('sessionId');
    expect((await problems(null)).field).toBe('');
  });
});
