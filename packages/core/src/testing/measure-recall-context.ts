import { createMemoryEngine } from '../engine/memory-engine.ts';
import type { KnowledgeBase } from '../knowledge/knowledge-base-spec.ts';
import type { Message } from '../model/message.ts';
import type { Store } from '../store/store-spec.ts';
import { generateConversation } from './generate-conversation.ts';

/** The profile the recall speed is measured with: a 4,000-token window, a summarizer every 20 interactions keeping 2, retrieval into every context. */
export const RECALL_SPEED_PROFILE = {
  short_term_memory_strategy: [{ memory_strategy_id: 'max_tokens', memory_max_tokens: 4000 }],
  long_term_memory_strategy: [
    {
      long_term_memory_id: 'summarizer',
      interaction_threshold_qty: 20,
      interaction_keep: 2,
      knowledge_base: { collection_id: 'recall-speed', search_mode: 'always' },
    },
  ],
};

export interface RecallContextResult {
  interactions: number;
  /** `context()` right after a new user message (the search runs, the budget is filled), per call, ns. */
  contextNs: readonly number[];
  /** Mean retrieved chunks and tokens of the knowledge message per context. */
  meanHits: number;
  meanKnowledgeTokens: number;
  /** Time to replay the history (appends, indexing, compactions), ms. */
  replayMs: number;
}

/**
 * Replays `interactions` generated turns (seed 11) into an engine with `RECALL_SPEED_PROFILE`,
 * then times `context()` for `questions` new user turns, each appended first (untimed) with
 * its reply after, so every timed call searches the knowledge base afresh.
 */
export async function measureRecallContext(options: {
  knowledgeBase: KnowledgeBase;
  store?: Store;
  interactions: number;
  questions: number;
}): Promise<RecallContextResult> {
  const { knowledgeBase, store, interactions, questions } = options;
  const engine = createMemoryEngine({
    profile: RECALL_SPEED_PROFILE,
    knowledgeBase,
    ...(store === undefined ? {} : { store }),
  });
  const turns = byTurn(generateConversation({ interactions: interactions + questions, seed: 11 }));
  const session = engine.session('recall-speed');
  const t0 = performance.now();
  for (const turn of turns.slice(0, interactions)) {
    await session.append(turn);
    await session.idle();
  }
  const replayMs = performance.now() - t0;
  const samples: number[] = [];
  let hits = 0;
  let knowledgeTokens = 0;
  for (const turn of turns.slice(interactions)) {
    await session.append(turn[0]!);
    const started = process.hrtime.bigint();
    const context = await session.context();
    samples.push(Number(process.hrtime.bigint() - started));
    hits += context.knowledge.length;
    knowledgeTokens +=
      context.messages.find((m) => m.metadata?.kind === 'knowledge')?.tokenCount ?? 0;
    if (turn.length > 1) await session.append(turn.slice(1));
    await session.idle();
  }
  return {
    interactions,
    contextNs: samples,
    meanHits: hits / questions,
    meanKnowledgeTokens: knowledgeTokens / questions,
    replayMs,
  };
}

function byTurn(messages: readonly Message[]): Message[][] {
  const out: Message[][] = [];
  for (const m of messages) {
    if (m.role === 'user' || out.length === 0) out.push([m]);
    else out.at(-1)!.push(m);
  }
  return out;
}
