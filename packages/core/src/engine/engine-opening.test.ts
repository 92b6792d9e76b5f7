import { describe, expect, it } from 'vitest';
import { createInMemoryKnowledgeBase } from '../knowledge/in-memory-knowledge-base.ts';
import { promptProblems } from '../model/prompt-validity.ts';
import { createInMemoryStore } from '../store/in-memory-store.ts';
import type { Store } from '../store/store-spec.ts';
import { createMemoryEngine } from './memory-engine.ts';
import { readTail } from './read-tail.ts';

const greeting = { role: 'assistant', content: 'Hi! Your booking code is BK-7781.' } as const;
const question = { role: 'user', content: 'What was my booking code?' } as const;
const window = (memory_max_tokens: number) => ({
  short_term_memory_strategy: [{ memory_strategy_id: 'max_tokens', memory_max_tokens }],
});

/** The context's messages as `role: content` lines, from a fresh engine (a load from the store). */
async function contextLines(store: Store, profile: object): Promise<string[]> {
  const context = await createMemoryEngine({ profile, store }).session('s').context();
  expect(promptProblems(context.messages, (await store.read('s')).messages)).toEqual([]);
  return context.messages.map((m) => `${m.role}: ${String(m.content)}`);
}

describe('a conversation that starts with an assistant message', () => {
  it("shows an opening assistant greeting before the user's first question (no strategy)", async () => {
    const store = createInMemoryStore();
    const session = createMemoryEngine({ profile: {}, store }).session('s');
    await session.append(greeting);
    await session.append(question);
    expect((await session.context()).messages.map((m) => m.content)).toEqual([
      greeting.content,
      question.content,
    ]);
    expect(await contextLines(store, {})).toEqual([
      'assistant: Hi! Your booking code is BK-7781.',
      'user: What was my booking code?',
    ]);
  });

  it('shows the greeting under a max_tokens 8000 window, cached and loaded from the store', async () => {
    const store = createInMemoryStore();
    const session = createMemoryEngine({ profile: window(8000), store }).session('s');
    await session.append(greeting);
    expect((await session.context()).messages.map((m) => m.content)).toEqual([greeting.content]);
    await session.append(question);
    const context = await session.context();
    expect(context.messages.map((m) => m.content)).toEqual([greeting.content, question.content]);
    expect(await contextLines(store, window(8000))).toEqual([
      'assistant: Hi! Your booking code is BK-7781.',
      'user: What was my booking code?',
    ]);
  });

  it('drops the greeting as a whole when the budget cannot hold it with the newer turns', async () => {
    const store = createInMemoryStore();
    const session = createMemoryEngine({ profile: window(8000), store }).session('s');
    await session.append([greeting, { role: 'assistant', content: 'How can I help today?' }]);
    await session.append(question);
    const full = await session.context();
    const [hello, more, ask] = full.messages;
    // Room for the question and one greeting message, not both: the opening goes whole.
    const budget = full.tokenCount - Math.min(hello!.tokenCount, more!.tokenCount);
    const small = await createMemoryEngine({ profile: window(budget), store })
      .session('s')
      .context();
    expect(small.messages.map((m) => m.id)).toEqual([ask!.id]);
    expect(small.tokenCount).toBeLessThanOrEqual(budget);
  });

  it('keeps a greeting that called a tool together with the tool result', async () => {
    const store = createInMemoryStore();
    const session = createMemoryEngine({ profile: window(8000), store }).session('s');
    await session.append([
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'c1', name: 'find_booking', arguments: '{"user":"u1"}' }],
      },
      { role: 'tool', toolCallId: 'c1', toolName: 'find_booking', content: 'BK-7781' },
      greeting,
    ]);
    await session.append(question);
    const lines = await contextLines(store, window(8000));
    expect(lines).toEqual([
      'assistant: ',
      'tool: BK-7781',
      'assistant: Hi! Your booking code is BK-7781.',
      'user: What was my booking code?',
    ]);
    const { messages } = await session.context();
    expect(messages[0]!.toolCalls?.map((c) => c.id)).toEqual(['c1']);
  });

  it('a tail read that starts inside a turn drops that fragment: no reply without its question', async () => {
    const store = createInMemoryStore();
    const session = createMemoryEngine({ profile: {}, store }).session('s');
    await session.append(greeting);
    for (let i = 0; i < 12; i++) {
      await session.append([
        { role: 'user', content: `Question ${i}` },
        { role: 'assistant', content: `First half of answer ${i}.` },
        { role: 'assistant', content: `Second half of answer ${i}.` },
      ]);
    }
    const all = (await store.read('s')).messages;
    const tail = await readTail(store, 's', 10);
    // Turns of 3 messages after the greeting: a page of 17 from the end begins inside a turn.
    expect(tail.messages[0]?.role).toBe('user');
    expect(tail.messages.map((m) => m.id)).toEqual(
      all.slice(-tail.messages.length).map((m) => m.id),
    );
    expect(tail.messages.length % 3).toBe(0);
    const whole = await readTail(store, 's', 100_000);
    expect(whole.messages.map((m) => m.content)).toEqual(all.map((m) => m.content));
  });
});

describe('long-term memory treats the opening as history', () => {
  it('summarizes a greeting older than interaction_keep instead of stranding it', async () => {
    const inputs: string[] = [];
    const engine = createMemoryEngine({
      summarizer: async (input: string) => {
        inputs.push(input);
        return 'The assistant opened with booking code BK-7781; the user then asked for it.';
      },
      profile: {
        long_term_memory_strategy: [
          { long_term_memory_id: 'summarizer', interaction_threshold_qty: 50, interaction_keep: 1 },
        ],
      },
    });
    const session = engine.session('s');
    await session.append(greeting);
    await session.append([question, { role: 'assistant', content: 'Let me check.' }]);
    expect(await session.summarizeNow()).toBe(true);
    expect(inputs.join('\n')).toContain('BK-7781');
    const context = await session.context();
    expect(context.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant']);
    expect(context.messages[0]!.content).toContain('BK-7781');
    expect(promptProblems(context.messages)).toEqual([]);
  });

  it('keeps a greeting within interaction_keep, counting it as an interaction', async () => {
    const engine = createMemoryEngine({
      summarizer: async () => 'Summary of earlier turns about bookings and seats.',
      profile: {
        long_term_memory_strategy: [
          { long_term_memory_id: 'summarizer', interaction_threshold_qty: 50, interaction_keep: 2 },
        ],
      },
    });
    const session = engine.session('s');
    await session.append(greeting);
    await session.append([question, { role: 'assistant', content: 'BK-7781.' }]);
    expect(await session.summarizeNow()).toBe(false);
    expect((await session.context()).messages.map((m) => m.content)).toEqual([
      greeting.content,
      question.content,
      'BK-7781.',
    ]);
  });

  it('shows the answer to a question that interaction_keep 0 summarized, after the summary', async () => {
    const engine = createMemoryEngine({
      summarizer: async () => 'The user asked for their booking code.',
      profile: {
        long_term_memory_strategy: [
          { long_term_memory_id: 'summarizer', interaction_threshold_qty: 50, interaction_keep: 0 },
        ],
      },
    });
    const session = engine.session('s');
    await session.append(question);
    expect(await session.summarizeNow()).toBe(true);
    await session.append({ role: 'assistant', content: 'It is BK-7781.' });
    await session.append({ role: 'user', content: 'Thanks!' });
    const context = await session.context();
    expect(context.messages.map((m) => m.role)).toEqual(['system', 'assistant', 'user']);
    expect(context.messages[0]!.content).toContain('The user asked for their booking code.');
    expect(context.messages.slice(1).map((m) => m.content)).toEqual(['It is BK-7781.', 'Thanks!']);
  });

  it('the neuralyzer erases the greeting with the older turns', async () => {
    const engine = createMemoryEngine({
      profile: {
        long_term_memory_strategy: [
          { long_term_memory_id: 'neuralyzer', interaction_threshold_qty: 2, interaction_keep: 1 },
        ],
      },
    });
    const session = engine.session('s');
    await session.append(greeting);
    await session.append([question, { role: 'assistant', content: 'BK-7781.' }]);
    await session.append({ role: 'user', content: 'Thanks, bye.' });
    await session.idle();
    expect((await session.context()).messages.map((m) => m.content)).toEqual(['Thanks, bye.']);
  });

  it('indexes the greeting in the knowledge base once the next turn starts', async () => {
    const knowledgeBase = createInMemoryKnowledgeBase();
    const engine = createMemoryEngine({
      knowledgeBase,
      profile: {
        long_term_memory_strategy: [
          {
            long_term_memory_id: 'summarizer',
            interaction_threshold_qty: 50,
            interaction_keep: 1,
            knowledge_base: { collection_id: 'kb' },
          },
        ],
      },
    });
    const session = engine.session('s');
    await session.append(greeting);
    await session.append(question);
    await session.idle();
    const hits = await knowledgeBase.search('kb', 'booking code', { topK: 5, sessionId: 's' });
    expect(hits.map((h) => h.chunk.text).join('\n')).toContain('BK-7781');
  });
});
