import { describe, expect, it } from 'vitest';
import { generateConversation } from '../testing/generate-conversation.ts';
import { recordingKnowledgeBase } from './__fixtures__/recording-knowledge-base.ts';
import { turnsOf } from './__fixtures__/replay.ts';
import { createMemoryEngine } from './memory-engine.ts';

const profile = {
  short_term_memory_strategy: [{ memory_strategy_id: 'max_tokens', memory_max_tokens: 3000 }],
  long_term_memory_strategy: [
    {
      long_term_memory_id: 'summarizer',
      interaction_threshold_qty: 4,
      interaction_keep: 1,
      knowledge_base: { collection_id: 'kb', top_k: 2 },
    },
  ],
};

describe('engine knowledge retrieval', () => {
  it('searches once per user message however many LLM calls the turn makes, and again after a compaction', async () => {
    const { kb, depths } = recordingKnowledgeBase();
    const searches = () => depths.length;
    const engine = createMemoryEngine({ profile, knowledgeBase: kb });
    const session = engine.session('s');
    const turns = turnsOf(generateConversation({ interactions: 8, seed: 2 }));
    for (const turn of turns.slice(0, 6)) {
      await session.append(turn);
      await session.idle();
    }
    const [user, call, result, answer] = turns[6]!;
    await session.append(user!);
    const before = searches();
    const first = await session.context();
    await session.append([call!, result!]); // the tool ran: a second LLM call, same question
    const second = await session.context();
    expect(searches()).toBe(before + 1);
    expect(second.knowledge.map((h) => h.chunk.id)).toEqual(first.knowledge.map((h) => h.chunk.id));
    await session.append(answer!);
    await session.append(turns[7]!);
    await session.idle();
    await session.context();
    expect(searches()).toBe(before + 2);
  });
});
