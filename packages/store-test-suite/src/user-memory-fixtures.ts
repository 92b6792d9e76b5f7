import {
  createMemoryEngine,
  type FactExtractor,
  type FactOperation,
  type MemoryEngine,
  type MemorySession,
} from '@mem/core';
import { type KnowledgeBase, messageText, type Store } from '@mem/core/backend';
import type { EngineTestPlace } from './engine-place.ts';
import { summarizer } from './engine-replay.ts';

/*
 * What the user-memory engine tests share: a profile that indexes every turn into a knowledge
 * base searched on every context, summarizes and erases when forced, and shows user facts; a
 * deterministic fact extractor.
 */
export const USER_COLLECTION = 'user-memory';

export const USER_PROFILE = {
  short_term_memory_strategy: [{ memory_strategy_id: 'max_tokens', memory_max_tokens: 1200 }],
  long_term_memory_strategy: [
    {
      long_term_memory_id: 'summarizer',
      interaction_threshold_qty: 1000,
      interaction_keep: 1,
      cod_max_loops: 1,
      knowledge_base: { collection_id: USER_COLLECTION, search_mode: 'always', top_k: 4 },
    },
    { long_term_memory_id: 'neuralyzer', interaction_keep: 3 },
  ],
  user_facts: { max_tokens: 300 },
};

/**
 * Reads `remember <about>: <text>` in the user's messages (e.g. `remember city: Lives in
 * Lisbon.`) as a fact about `<about>`; a newer one about the same thing supersedes it.
 */
export const rememberExtractor: FactExtractor = {
  specificationVersion: 'mem.fact-extractor.v1',
  id: 'remember-lines',
  extract: async ({ messages }) =>
    messages.flatMap((m): FactOperation[] => {
      if (m.role !== 'user') return [];
      const found = /remember ([\w-]+): (.+)$/.exec(messageText(m));
      return found === null ? [] : [{ op: 'add', about: found[1]!, text: found[2]! }];
    }),
};

export function userEngine(
  store: Store,
  knowledgeBase: KnowledgeBase,
  profile: object = USER_PROFILE,
): MemoryEngine {
  return createMemoryEngine({
    profile,
    store,
    knowledgeBase,
    summarizer,
    factExtractor: rememberExtractor,
  });
}

/** One finished interaction: the question, the answer, and the next user message. */
export async function exchange(
  session: MemorySession,
  question: string,
  answer: string,
): Promise<void> {
  await session.append({ role: 'user', content: question });
  await session.context();
  await session.append({ role: 'assistant', content: answer });
  await session.idle();
}

/** Everything a context shows, as one string. */
export const shown = (messages: readonly unknown[]): string => JSON.stringify(messages);

/** Opens stores and knowledge bases on a place, as processes would, and closes them all. */
export function connections(place: EngineTestPlace) {
  const open: { store: Store; kb: KnowledgeBase }[] = [];
  return {
    open(): { store: Store; kb: KnowledgeBase } {
      const pair = { store: place.store(), kb: place.knowledgeBase() };
      open.push(pair);
      return pair;
    },
    /** A user-memory engine on a new connection. */
    engine(profile?: object): MemoryEngine {
      const { store, kb } = this.open();
      return userEngine(store, kb, profile);
    },
    async close(): Promise<void> {
      await Promise.all(open.flatMap((o) => [o.store.close(), o.kb.close()]));
    },
  };
}
