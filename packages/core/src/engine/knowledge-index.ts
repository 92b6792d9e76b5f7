import { isSummarizerConfig, type SummarizerStrategyConfig } from '../config/profile-schema.ts';
import type { KnowledgeChunk, KnowledgeHit } from '../knowledge/knowledge-base-spec.ts';
import { splitTextSpans } from '../knowledge/text-splitter.ts';
import type { Interaction } from '../model/interaction.ts';
import { groupInteractions } from '../model/interaction-log.ts';
import { type CountedMessage, isSummaryMessage } from '../model/message.ts';
import { summaryBody } from '../model/summary-message.ts';
import type { StoredMessage } from '../store/store-spec.ts';
import type { EngineContext } from './engine-context.ts';
import { priceDayLines } from './knowledge-message.ts';
import { type ChunkSplit, turnChunks } from './turn-chunks.ts';

type KnowledgeTarget = { config: SummarizerStrategyConfig; collectionId: string };

/** The summarizer strategies that index into a knowledge base, when the engine has one. */
export function knowledgeTargets(ctx: EngineContext): KnowledgeTarget[] {
  if (ctx.knowledgeBase === undefined) return [];
  return ctx.profile.longTerm.flatMap(({ config }) =>
    isSummarizerConfig(config) && config.knowledge_base !== null
      ? [{ config, collectionId: config.knowledge_base.collection_id }]
      : [],
  );
}

const splitOf = (ctx: EngineContext, config: SummarizerStrategyConfig): ChunkSplit => ({
  chunkSize: config.text_splitter.chunk_size,
  chunkOverlap: config.text_splitter.chunk_overlap,
  counter: ctx.counter,
});

/**
 * Makes finished interactions searchable (continuous indexing): one or more chunks per
 * interaction, labelled by speaker, into every collection the profile indexes into. Indexing
 * an interaction again replaces its chunks.
 */
export async function indexInteractions(
  ctx: EngineContext,
  sessionId: string,
  interactions: readonly Interaction[],
  before?: Interaction,
  userId?: string,
): Promise<void> {
  if (interactions.length === 0) return;
  for (const { config, collectionId } of knowledgeTargets(ctx)) {
    const split = splitOf(ctx, config);
    const chunks = interactionChunks(sessionId, interactions, split, before, userId);
    if (chunks.length === 0) continue;
    await ctx.knowledgeBase!.add(collectionId, chunks);
    priceDayLines(ctx, chunks);
    ctx.events.emit('knowledge:indexed', { sessionId, collectionId, chunks: chunks.length });
  }
}

/** The chunks of consecutive interactions, each found also by the last message before it. */
function interactionChunks(
  sessionId: string,
  interactions: readonly Interaction[],
  split: ChunkSplit,
  before?: Interaction,
  userId?: string,
): KnowledgeChunk[] {
  return interactions.flatMap((interaction, i) => {
    const previous = i === 0 ? before : interactions[i - 1];
    return turnChunks(sessionId, interaction.messages, split, previous?.messages.at(-1), userId);
  });
}

/**
 * Indexes a compaction: the new summary, and the archived interactions not indexed yet (those
 * after `indexedSeq`: normally none, they were indexed as they finished). The chunks of a
 * summary it folded in leave the knowledge base: the new summary carries what they held.
 */
export async function indexCompaction(
  ctx: EngineContext,
  sessionId: string,
  config: SummarizerStrategyConfig,
  summary: CountedMessage,
  replaced: readonly StoredMessage[],
  indexedSeq: number,
  userId?: string,
): Promise<void> {
  const kb = ctx.knowledgeBase;
  const target = config.knowledge_base;
  if (kb === undefined || target === null) return;
  const split = splitOf(ctx, config);
  const chunks: KnowledgeChunk[] = splitTextSpans(summaryBody(summary), split).map((span, i) => ({
    id: `${summary.id}:${i}`,
    text: span.text,
    tokenCount: span.tokenCount,
    metadata: {
      sessionId,
      ...(userId === undefined ? {} : { userId }),
      kind: 'summary',
      summaryId: summary.id,
      messageIds: [summary.id],
      createdAt: summary.createdAt,
    },
  }));
  const archived = groupInteractions(replaced.filter((m) => !isSummaryMessage(m))).interactions;
  const first = archived.findIndex((i) => (i.messages.at(-1)?.seq ?? 0) > indexedSeq);
  if (first >= 0) {
    const todo = archived.slice(first);
    chunks.push(...interactionChunks(sessionId, todo, split, archived[first - 1], userId));
  }
  const folded = replaced.filter(isSummaryMessage).map((m) => m.id);
  if (folded.length > 0) {
    await kb.delete(target.collection_id, { sessionId, summaryIds: folded });
  }
  await kb.add(target.collection_id, chunks);
  priceDayLines(ctx, chunks);
  ctx.events.emit('knowledge:indexed', {
    sessionId,
    collectionId: target.collection_id,
    chunks: chunks.length,
  });
}

/** Removes erased content from every collection the profile indexes into. */
export async function forgetInKnowledgeBase(
  ctx: EngineContext,
  sessionId: string,
  collections: readonly string[],
  filter: { messageIds?: string[]; summaryIds?: string[] },
): Promise<void> {
  const kb = ctx.knowledgeBase;
  if (kb === undefined) return;
  for (const collectionId of collections) await kb.delete(collectionId, { sessionId, ...filter });
}

/**
 * Which chunks a session's search covers: `knowledge_base.scope`, by default `user` for a session
 * that has a user (every session of that user, never another's) and `session` otherwise; `user`
 * without a user is `session`.
 */
export function searchScope(
  config: SummarizerStrategyConfig,
  sessionId: string,
  userId: string | undefined,
): { sessionId: string } | { userId: string } {
  const scope = config.knowledge_base?.scope ?? (userId === undefined ? 'session' : 'user');
  return scope === 'user' && userId !== undefined ? { userId } : { sessionId };
}

/** Hits for `query` from every collection with `search_mode: "always"`, best first in each. */
export async function searchKnowledge(
  ctx: EngineContext,
  sessionId: string,
  query: string | undefined,
  extra: number,
  userId?: string,
): Promise<{ collectionId: string; hits: KnowledgeHit[] }[]> {
  const kb = ctx.knowledgeBase;
  if (kb === undefined || query === undefined) return [];
  const out: { collectionId: string; hits: KnowledgeHit[] }[] = [];
  for (const { config, collectionId } of knowledgeTargets(ctx)) {
    const target = config.knowledge_base!;
    if (target.search_mode !== 'always') continue;
    // Hits already in the window are dropped later: ask for a few more than top_k.
    const topK = Math.min(100, target.top_k + extra);
    const hits = await kb.search(collectionId, query, {
      topK,
      ...searchScope(config, sessionId, userId),
    });
    out.push({ collectionId, hits });
  }
  return out;
}
