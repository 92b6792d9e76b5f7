import { createMemoryEngine, type MemoryEngine } from '@mem/core';
import { type KnowledgeBase, type Message, promptProblems, type Store } from '@mem/core/backend';
import { expect } from 'vitest';

/*
 * What the engine end-to-end tests replay: a summarizer profile indexing into a knowledge base,
 * searched on every context, in an 8k window; a deterministic summarizer; and the agent loop.
 */
export const COLLECTION = 'session-summaries';
export const THRESHOLD = 20;
export const WINDOW = 8000;

const PROFILE = {
  short_term_memory_strategy: [{ memory_strategy_id: 'max_tokens', memory_max_tokens: WINDOW }],
  long_term_memory_strategy: [
    {
      long_term_memory_id: 'summarizer',
      interaction_threshold_qty: THRESHOLD,
      cod_max_loops: 2,
      interaction_keep: 3,
      instructions: 'Focus on action items and decisions made.',
      knowledge_base: { collection_id: COLLECTION, search_mode: 'always', top_k: 3 },
    },
  ],
};

/** Keeps the user lines of what it summarizes, bounded by the target. */
export const summarizer = (input: string, options: { targetTokens: number }) => {
  const lines = input.split('\n').filter((l) => l.toLowerCase().startsWith('user'));
  return `Decisions and action items: ${lines.slice(0, 8).join(' | ')}`.slice(
    0,
    options.targetTokens * 3,
  );
};

/** Splits a flat conversation into turns (a user message and what follows it). */
export function turnsOf(messages: readonly Message[]): Message[][] {
  const turns: Message[][] = [];
  for (const m of messages) {
    if (m.role === 'user' || turns.length === 0) turns.push([m]);
    else turns.at(-1)!.push(m);
  }
  return turns;
}

/** The agent loop: append the user message, build the context, append the replies, settle. */
export async function replay(
  engine: MemoryEngine,
  sessionId: string,
  messages: readonly Message[],
): Promise<number[]> {
  const session = engine.session(sessionId);
  const tokenCounts: number[] = [];
  for (const [user, ...replies] of turnsOf(messages)) {
    await session.append(user!);
    const context = await session.context();
    tokenCounts.push(context.tokenCount);
    expect(promptProblems(context.messages)).toEqual([]);
    if (replies.length > 0) {
      await session.append(replies, {
        usage: { inputTokens: context.tokenCount, outputTokens: 50 },
      });
    }
    await session.idle();
  }
  return tokenCounts;
}

export function engineOn(store: Store, knowledgeBase: KnowledgeBase): MemoryEngine {
  return createMemoryEngine({ profile: PROFILE, store, knowledgeBase, summarizer });
}
