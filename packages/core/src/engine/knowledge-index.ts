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

/** What a collection's search returned, and whether it may hold more hits than were asked for. */
export interface CollectionHits {
  collectionId: string;
  hits: KnowledgeHit[];
  /** The search asked for fewer hits than `top_k` allows and got all it asked for. */
  more: boolean;
}

/**
 * Mean tokens of the hits each collection returned, per engine (by collection id): what a search
 * expects a hit to take of the knowledge message. Weighs about the last 512 hits.
 */
const hitTokens = new WeakMap<EngineContext, Map<string, { mean: number; seen: number }>>();
const HIT_TOKENS_WEIGHT = 512;
/** A shallow search asks for this many times the hits the room is expected to hold... */
const DEPTH_FACTOR = 2;
/** ...and never fewer than this many (plus the window's interactions). */
const MIN_DEPTH = 16;

/**
 * How many hits to ask a collection for, of the `full` count (`top_k` plus one per interaction the
 * window shows, `extra`: those hits are dropped as repeats): all of them when nothing is known
 * yet or the room has no token limit; else about twice what the room (`tokens`) is expected to
 * hold, by the mean size of the hits the collection returned before, plus `extra`. A chunk is
 * read whole by every backend, so asking for 100 hits when 17 fit costs most of a search.
 */
function searchDepth(
  ctx: EngineContext,
  collectionId: string,
  full: number,
  extra: number,
  tokens: number,
): number {
  const known = hitTokens.get(ctx)?.get(collectionId);
  if (known === undefined || !Number.isFinite(tokens)) return full;
  const fit = Math.ceil((DEPTH_FACTOR * Math.max(tokens, 0)) / Math.max(known.mean, 1));
  return Math.min(full, extra + Math.max(MIN_DEPTH, fit));
}

function learnHitTokens(ctx: EngineContext, collectionId: string, hits: readonly KnowledgeHit[]) {
  let byCollection = hitTokens.get(ctx);
  if (byCollection === undefined) {
    byCollection = new Map();
    hitTokens.set(ctx, byCollection);
  }
  let known = byCollection.get(collectionId);
  for (const hit of hits) {
    const tokens = hit.chunk.tokenCount;
    if (!Number.isFinite(tokens) || tokens < 0) continue;
    if (known === undefined) {
      known = { mean: tokens, seen: 1 };
      byCollection.set(collectionId, known);
    } else {
      known.seen = Math.min(known.seen + 1, HIT_TOKENS_WEIGHT);
      known.mean += (tokens - known.mean) / known.seen;
    }
  }
}

/**
 * Hits for `query` from every collection with `search_mode: "always"`, best first in each: as
 * many as `searchDepth` says for a knowledge message of `tokens`, or (`deep`) all `top_k` allows.
 */
export async function searchKnowledge(
  ctx: EngineContext,
  sessionId: string,
  query: string | undefined,
  extra: number,
  options: { userId?: string | undefined; tokens: number; deep?: boolean },
): Promise<CollectionHits[]> {
  const kb = ctx.knowledgeBase;
  if (kb === undefined || query === undefined) return [];
  const out: CollectionHits[] = [];
  for (const { config, collectionId } of knowledgeTargets(ctx)) {
    const target = config.knowledge_base!;
    if (target.search_mode !== 'always') continue;
    // Hits already in the window are dropped later: ask for a few more than top_k.
    const full = Math.min(100, target.top_k + extra);
    const topK =
      options.deep === true ? full : searchDepth(ctx, collectionId, full, extra, options.tokens);
    const hits = await kb.search(collectionId, query, {
      topK,
      ...searchScope(config, sessionId, options.userId),
    });
    learnHitTokens(ctx, collectionId, hits);
    out.push({ collectionId, hits, more: topK < full && hits.length >= topK });
  }
  return out;
}
