import { seedExamples } from '../../src/config/__fixtures__/seed-examples.ts';
import { createMemoryEngine } from '../../src/engine/memory-engine.ts';
import { searchQuery } from '../../src/engine/recall-query.ts';
import { createInMemoryKnowledgeBase } from '../../src/knowledge/in-memory-knowledge-base.ts';
import type { Message } from '../../src/model/message.ts';
import type { TokenCounter } from '../../src/tokens/token-counter.ts';
import { contextText } from './context-text.ts';
import type { RecallConversation } from './recall-dataset.ts';

const COLLECTION = 'recall';

interface ProfileJson {
  short_term_memory_strategy: Record<string, unknown>[];
  long_term_memory_strategy: Record<string, unknown>[];
}

/**
 * The seeds' combined profile ('001 combined': a `max_tokens` window, and a summarizer every 20
 * interactions keeping 2) with the window set to `budget` and a knowledge base searched for
 * every context (`search_mode: "always"`, default `top_k`).
 */
export function recallProfile(budget: number): ProfileJson {
  const seed = seedExamples.find((s) => s.seed === '001 combined');
  if (seed === undefined) throw new Error('[recall] the seed "001 combined" is missing');
  const { profile } = JSON.parse(seed.json) as { profile: ProfileJson };
  return {
    ...profile,
    short_term_memory_strategy: profile.short_term_memory_strategy.map((s) => ({
      ...s,
      memory_max_tokens: budget,
    })),
    long_term_memory_strategy: profile.long_term_memory_strategy.map((s) => ({
      ...s,
      knowledge_base: { collection_id: COLLECTION, search_mode: 'always' },
    })),
  };
}

export interface MemAnswer {
  /** The context's message texts, normalised. */
  text: string;
  tokenCount: number;
  /** Message ids covered by the knowledge base's best `ks[i]` hits for the question. */
  retrieved: Set<string>[];
}

export interface MemRun {
  answers: Map<string, MemAnswer>;
  compactions: number;
  compactionErrors: number;
  knowledgeChunks: number;
  replayMs: number;
}

/**
 * Replays a conversation into a fresh engine (in-memory store and knowledge base, extractive
 * summarizer: no LLM), one message per append, waiting for compactions; then, for each
 * question, the context for the next call ending with it, and what the knowledge base finds.
 */
export async function runMem(
  conversation: RecallConversation,
  budget: number,
  ks: readonly number[],
  counter: TokenCounter,
): Promise<MemRun> {
  const knowledgeBase = createInMemoryKnowledgeBase();
  const engine = createMemoryEngine({
    profile: recallProfile(budget),
    knowledgeBase,
    tokenCounter: counter,
  });
  let compactions = 0;
  let compactionErrors = 0;
  engine.on('compacted', () => compactions++);
  engine.on('compaction:error', () => compactionErrors++);
  const session = engine.session(conversation.id);
  const t0 = performance.now();
  for (const message of conversation.messages) {
    await session.append(message as Message);
    await session.idle();
  }
  const replayMs = performance.now() - t0;
  const answers = new Map<string, MemAnswer>();
  for (const q of conversation.questions) {
    const context = await session.context({ next: { role: 'user', content: q.question } });
    const retrieved: Set<string>[] = [];
    for (const k of ks) {
      // The engine's own query: the question without its question words.
      const hits = await knowledgeBase.search(COLLECTION, searchQuery(q.question), {
        topK: k,
        sessionId: conversation.id,
      });
      retrieved.push(new Set(hits.flatMap((h) => h.chunk.metadata.messageIds)));
    }
    answers.set(q.id, {
      text: contextText(context.messages),
      tokenCount: context.tokenCount,
      retrieved,
    });
  }
  const knowledgeChunks = await knowledgeBase.count(COLLECTION, { sessionId: conversation.id });
  return { answers, compactions, compactionErrors, knowledgeChunks, replayMs };
}

export interface CrossSessionRun {
  /** Per question: the context of a new session of the user, ending with the question. */
  answers: Map<string, { text: string; tokenCount: number; facts: string }>;
  sessions: number;
  facts: number;
  replayMs: number;
}

/**
 * The cross-session mode: every session of the source is stored as its own engine session of one
 * user (the conversation's first speaker), one message per append, waiting for the background
 * work; then each question is asked in a new session of that user, which has nothing stored.
 * `facts` is the text of the user-facts block in that context (empty when there is none).
 */
export async function runMemAcrossSessions(
  conversation: RecallConversation,
  budget: number,
  counter: TokenCounter,
): Promise<CrossSessionRun> {
  const engine = createMemoryEngine({
    profile: recallProfile(budget),
    knowledgeBase: createInMemoryKnowledgeBase(),
    tokenCounter: counter,
  });
  const userId = `user-${conversation.id}`;
  const keys: string[] = [];
  const t0 = performance.now();
  for (const [i, message] of conversation.messages.entries()) {
    const key = conversation.sessions[i]!;
    if (keys.at(-1) !== key) keys.push(key);
    const session = engine.session(`${conversation.id}:${key}`, { userId });
    await session.append(message as Message);
    await session.idle();
  }
  await engine.idle();
  const replayMs = performance.now() - t0;
  const answers = new Map<string, { text: string; tokenCount: number; facts: string }>();
  for (const q of conversation.questions) {
    const session = engine.session(`${conversation.id}:new:${q.id}`, { userId });
    const context = await session.context({ next: { role: 'user', content: q.question } });
    const factsBlock = context.messages.find((m) => m.metadata?.kind === 'user_facts');
    answers.set(q.id, {
      text: contextText(context.messages),
      tokenCount: context.tokenCount,
      facts: factsBlock === undefined ? '' : contextText([factsBlock]),
    });
  }
  const facts = (await engine.user(userId).facts()).length;
  return { answers, sessions: new Set(keys).size, facts, replayMs };
}
