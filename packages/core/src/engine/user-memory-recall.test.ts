import { describe, expect, it } from 'vitest';
import { createInMemoryKnowledgeBase } from '../knowledge/in-memory-knowledge-base.ts';
import { messageText } from '../model/message.ts';
import { createInMemoryStore } from '../store/in-memory-store.ts';
import { createTokenCounter } from '../tokens/token-counter.ts';
import { USER_KNOWLEDGE_HEADER } from './knowledge-message.ts';
import { createMemoryEngine } from './memory-engine.ts';
import type { MemorySession } from './memory-session.ts';

function recallEngine(scope?: 'session' | 'user') {
  const knowledgeBase = createInMemoryKnowledgeBase();
  const store = createInMemoryStore();
  let now = Date.UTC(2026, 0, 5, 14, 3);
  const engine = createMemoryEngine({
    profile: {
      short_term_memory_strategy: [{ memory_strategy_id: 'max_tokens', memory_max_tokens: 2000 }],
      long_term_memory_strategy: [
        {
          long_term_memory_id: 'summarizer',
          interaction_threshold_qty: 1000,
          knowledge_base: {
            collection_id: 'kb',
            search_mode: 'always',
            ...(scope === undefined ? {} : { scope }),
          },
        },
      ],
    },
    store,
    knowledgeBase,
    factExtractor: null,
    now: () => (now += 60_000),
  });
  return { engine, knowledgeBase, store };
}

async function say(session: MemorySession, user: string, answer: string) {
  await session.append([
    { role: 'user', content: user },
    { role: 'assistant', content: answer },
  ]);
  // The next user message finishes the interaction: it is indexed in the background.
  await session.append({ role: 'user', content: 'Thanks, that is all for today.' });
  await session.idle();
}

const knowledgeText = (messages: readonly { metadata?: unknown; content: unknown }[]) =>
  messages
    .filter((m) => (m.metadata as { kind?: string } | undefined)?.kind === 'knowledge')
    .map((m) => messageText(m as never))
    .join('\n');

describe('recall across the sessions of one user', () => {
  it('a new session of the user recalls an answer given in another session, labelled with its date and session', async () => {
    const { engine } = recallEngine();
    await say(
      engine.session('trip-planning', { userId: 'ana' }),
      'Which ferry goes to Senja?',
      'The Hurtigbåt from Tromsø leaves at 07:40 from quay 3.',
    );
    const fresh = engine.session('monday-chat', { userId: 'ana' });
    const context = await fresh.context({
      next: { role: 'user', content: 'When does the ferry to Senja leave?' },
    });
    const text = knowledgeText(context.messages);
    expect(text).toContain('07:40 from quay 3');
    expect(text.startsWith(USER_KNOWLEDGE_HEADER)).toBe(true);
    expect(text).toMatch(/\[2026-01-05 \d\d:\d\d, another conversation: trip-planning\]/);
    const counter = createTokenCounter();
    const message = context.messages.find((m) => m.metadata?.kind === 'knowledge')!;
    expect(message.tokenCount).toBeGreaterThanOrEqual(counter.countMessage(message));
    expect(context.knowledge[0]!.chunk.metadata.userId).toBe('ana');
  });

  it("another user's session never sees it, nor does a session without a user", async () => {
    const { engine } = recallEngine();
    await say(
      engine.session('trip', { userId: 'ana' }),
      'Which ferry goes to Senja?',
      'The Hurtigbåt leaves at 07:40 from quay 3.',
    );
    const question = { role: 'user' as const, content: 'When does the ferry to Senja leave?' };
    for (const session of [engine.session('b1', { userId: 'bob' }), engine.session('plain')]) {
      const context = await session.context({ next: question });
      expect(context.knowledge).toEqual([]);
      expect(JSON.stringify(context.messages)).not.toContain('07:40');
    }
  });

  it('scope "session" keeps the search inside the session even for a user', async () => {
    const { engine } = recallEngine('session');
    await say(
      engine.session('trip', { userId: 'ana' }),
      'Which ferry goes to Senja?',
      'The Hurtigbåt leaves at 07:40 from quay 3.',
    );
    const context = await engine
      .session('other', { userId: 'ana' })
      .context({ next: { role: 'user', content: 'When does the ferry to Senja leave?' } });
    expect(context.knowledge).toEqual([]);
  });

  it("a hit of another session is never taken for a repeat of this window's message with the same id", async () => {
    const { engine } = recallEngine();
    const first = engine.session('first', { userId: 'ana' });
    await first.append([
      { id: 'm1', role: 'user', content: 'Which ferry goes to Senja?' },
      { id: 'm2', role: 'assistant', content: 'The Hurtigbåt leaves at 07:40 from quay 3.' },
    ]);
    await first.append({ id: 'm3', role: 'user', content: 'Thanks.' });
    await first.idle();
    const second = engine.session('second', { userId: 'ana' });
    await second.append([
      { id: 'm1', role: 'user', content: 'Hello there' },
      { id: 'm2', role: 'assistant', content: 'Hi!' },
    ]);
    const context = await second.context({
      next: { role: 'user', content: 'When does the ferry to Senja leave?' },
    });
    expect(knowledgeText(context.messages)).toContain('07:40');
  });
});
