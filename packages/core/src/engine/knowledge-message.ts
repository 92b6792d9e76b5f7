import type { MemoryProfile } from '../config/parse-profile.ts';
import type { KnowledgeHit } from '../knowledge/knowledge-base-spec.ts';
import type { CountedMessage } from '../model/message.ts';
import type { EngineContext } from './engine-context.ts';

/** First line of the message that carries retrieved knowledge. */
export const KNOWLEDGE_HEADER = 'Relevant memory from earlier in this conversation:';

/**
 * Turns knowledge hits into one system message that fits the budget: the tightest
 * `memory_max_tokens` must still hold the system messages, this message and the newest user
 * message, so the lowest-ranked hits are dropped until it does. No short-term strategy: no limit.
 */
export function knowledgeMessage(
  ctx: EngineContext,
  system: readonly CountedMessage[],
  hits: readonly KnowledgeHit[],
  newestUser: CountedMessage | undefined,
  shortTerm: MemoryProfile['shortTerm'],
): { message: CountedMessage | undefined; hits: KnowledgeHit[] } {
  if (hits.length === 0) return { message: undefined, hits: [] };
  const budgets = shortTerm.map((s) => s.config.memory_max_tokens);
  if (budgets.some((b) => b < 0)) return { message: undefined, hits: [] };
  const budget = budgets.length === 0 ? Number.POSITIVE_INFINITY : Math.min(...budgets);
  let fixed = ctx.counter.replyPrimingTokens + (newestUser?.tokenCount ?? 0);
  for (const m of system) fixed += m.tokenCount;
  const kept = [...hits];
  while (kept.length > 0) {
    const draft = {
      id: `knowledge_${kept.map((h) => h.chunk.id).join('|')}`,
      role: 'system' as const,
      content: `${KNOWLEDGE_HEADER}\n${kept.map((h) => `- ${h.chunk.text}`).join('\n')}`,
      createdAt: ctx.now(),
      metadata: { kind: 'knowledge', chunkIds: kept.map((h) => h.chunk.id) },
    };
    const message = { ...draft, tokenCount: ctx.counter.countMessage(draft) };
    if (fixed + message.tokenCount <= budget) return { message, hits: kept };
    kept.pop();
  }
  return { message: undefined, hits: [] };
}
