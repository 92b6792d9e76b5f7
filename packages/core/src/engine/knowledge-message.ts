import type { MemoryProfile } from '../config/parse-profile.ts';
import type { KnowledgeHit } from '../knowledge/knowledge-base-spec.ts';
import type { CountedMessage } from '../model/message.ts';
import type { EngineContext } from './engine-context.ts';

const LINE_PREFIX = '\n- ';
const frames = new WeakMap<EngineContext['counter'], { base: number; perLine: number }>();

function frameTokens(ctx: EngineContext): { base: number; perLine: number } {
  let frame = frames.get(ctx.counter);
  if (frame === undefined) {
    const base = ctx.counter.countMessage({
      id: 'k',
      role: 'system',
      content: KNOWLEDGE_HEADER,
      createdAt: 0,
    });
    frame = { base, perLine: ctx.counter.countText(LINE_PREFIX) };
    frames.set(ctx.counter, frame);
  }
  return frame;
}

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
  // Chunks were counted when indexed; the message costs its frame plus, per chunk, the line
  // prefix and the chunk. Lines are split at "\n", where BPE never merges across, so the sum
  // is the count of the joined text without tokenizing it again.
  const frame = frameTokens(ctx);
  let tokens = frame.base;
  let fit = 0;
  for (const hit of hits) {
    const next = tokens + frame.perLine + hit.chunk.tokenCount;
    if (fixed + next > budget) break;
    tokens = next;
    fit++;
  }
  if (fit === 0) return { message: undefined, hits: [] };
  const kept = hits.slice(0, fit);
  const message: CountedMessage = {
    id: `knowledge_${kept.map((h) => h.chunk.id).join('|')}`,
    role: 'system',
    content: `${KNOWLEDGE_HEADER}${kept.map((h) => `${LINE_PREFIX}${h.chunk.text}`).join('')}`,
    createdAt: ctx.now(),
    metadata: { kind: 'knowledge', chunkIds: kept.map((h) => h.chunk.id) },
    tokenCount: tokens,
  };
  return { message, hits: kept };
}
