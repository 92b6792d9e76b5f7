import { describe, expect, it } from 'vitest';
import type { Message } from '../model/message.ts';
import { createTokenCounter } from '../tokens/token-counter.ts';
import { chunkForIndex } from './chunk-for-index.ts';
import { createMemoryKnowledgeBase } from './memory-knowledge-base.ts';

const counter = createTokenCounter();
const options = { chunkSize: 24, chunkOverlap: 4, counter };

const turn: Message[] = [
  {
    id: 'u1',
    role: 'user',
    content: 'Please refund invoice 20931, it was paid twice.',
    createdAt: 300,
  },
  {
    id: 'a1',
    role: 'assistant',
    content: '',
    toolCalls: [{ id: 'c1', name: 'open_ticket', arguments: '{"invoice":20931}' }],
    createdAt: 100,
  },
  {
    id: 't1',
    role: 'tool',
    content: 'Ticket AF-1042 opened.',
    toolCallId: 'c1',
    toolName: 'open_ticket',
    createdAt: 200,
  },
  { id: 'a2', role: 'assistant', content: 'Done: refund ticket AF-1042 is open.', createdAt: 400 },
];

describe('chunkForIndex', () => {
  it('cuts a summary into chunks with ids <summaryId>:<i> and the summary metadata', () => {
    const text = 'The user asked for a refund of invoice 20931. '.repeat(6);
    const chunks = chunkForIndex(
      { kind: 'summary', sessionId: 's1', summaryId: 'sum1', text, createdAt: 5, start: 1, end: 4 },
      options,
    );
    expect(chunks.length).toBeGreaterThan(1);
    chunks.forEach((chunk, i) => {
      expect(chunk.id).toBe(`sum1:${i}`);
      expect(chunk.tokenCount).toBe(counter.countText(chunk.text));
      expect(chunk.tokenCount).toBeLessThanOrEqual(options.chunkSize);
      expect(chunk.metadata).toEqual({
        sessionId: 's1',
        kind: 'summary',
        summaryId: 'sum1',
        messageIds: ['sum1'],
        createdAt: 5,
        start: 1,
        end: 4,
      });
    });
    // Chunks never share their messageIds array.
    chunks[0]?.metadata.messageIds.push('x');
    expect(chunks[1]?.metadata.messageIds).toEqual(['sum1']);
  });

  it('indexes an archived turn as a transcript keyed by its first message', () => {
    const chunks = chunkForIndex(
      { kind: 'archive', sessionId: 's1', summaryId: 'sum1', messages: turn },
      { ...options, chunkSize: 512 },
    );
    expect(chunks).toHaveLength(1);
    const [chunk] = chunks;
    expect(chunk?.id).toBe('u1:0');
    expect(chunk?.text).toContain('User: Please refund invoice 20931');
    expect(chunk?.text).toContain('open_ticket');
    expect(chunk?.text).toContain('AF-1042');
    expect(chunk?.metadata).toEqual({
      sessionId: 's1',
      kind: 'archive',
      summaryId: 'sum1',
      messageIds: ['u1', 'a1', 't1', 'a2'],
      createdAt: 300,
      start: 100,
      end: 400,
    });
  });

  it('skips summary messages in an archive and gives nothing for an empty source', () => {
    const earlier: Message = {
      id: 'sum0',
      role: 'system',
      content: 'Earlier summary',
      createdAt: 1,
      metadata: { kind: 'summary' },
    };
    const [chunk] = chunkForIndex(
      { kind: 'archive', sessionId: 's1', messages: [earlier, ...turn] },
      options,
    );
    expect(chunk?.id).toBe('u1:0');
    expect(chunk?.metadata.messageIds).not.toContain('sum0');
    expect(
      chunkForIndex({ kind: 'archive', sessionId: 's1', messages: [earlier] }, options),
    ).toEqual([]);
    expect(
      chunkForIndex(
        { kind: 'summary', sessionId: 's1', summaryId: 's', text: '', createdAt: 0 },
        options,
      ),
    ).toEqual([]);
  });

  it('is deterministic, so indexing a source twice replaces its chunks', async () => {
    const kb = createMemoryKnowledgeBase();
    const source = { kind: 'archive' as const, sessionId: 's1', messages: turn };
    await kb.add('c', chunkForIndex(source, options));
    const first = await kb.count('c');
    await kb.add('c', chunkForIndex(source, options));
    expect(await kb.count('c')).toBe(first);
    const [hit] = await kb.search('c', 'refund ticket AF-1042', { topK: 1 });
    expect(hit?.chunk.metadata.kind).toBe('archive');
    expect(await kb.delete('c', { sessionId: 's1', messageIds: ['t1'] })).toBe(first);
    expect(await kb.search('c', 'AF-1042', { topK: 3 })).toEqual([]);
  });
});
