import type { KnowledgeHit } from '../knowledge/knowledge-base-spec.ts';
import type { Interaction } from '../model/interaction.ts';
import type { CountedMessage, Message } from '../model/message.ts';
import type { ShortTermStrategy } from '../strategies/short-term/short-term-strategy.ts';
import { selectionMessages, selectWindow } from '../strategies/short-term/short-term-strategy.ts';
import type { EngineContext } from './engine-context.ts';
import { knowledgeTargets, searchKnowledge } from './knowledge-index.ts';
import {
  isRepeat,
  type KnowledgeRoom,
  knowledgeMessage,
  knowledgeRoom,
} from './knowledge-message.ts';
import type { MessageInput } from './message-input.ts';
import { countNext, withNext } from './next-messages.ts';
import { recallQuery } from './recall-query.ts';
import type { SessionState } from './session-state.ts';
import { userFactsMessage, withUserFacts } from './user-facts-message.ts';

export interface ContextOptions {
  /** Messages to end the context with, not stored: checked and counted like `append`'s. */
  next?: MessageInput | MessageInput[];
}

/** What to send to the LLM next, and why. */
export interface MemoryContext {
  /**
   * System prompts, the user's facts (a session with a user), the summary, retrieved knowledge,
   * then the window; a valid prompt.
   */
  messages: CountedMessage[];
  /** Prompt tokens of `messages` plus reply priming. */
  tokenCount: number;
  /** The newest interaction was cut to fit the budget. */
  truncated: boolean;
  /** Knowledge-base chunks included, best first. */
  knowledge: KnowledgeHit[];
}

/**
 * Builds a session's context: the short-term window over the stored conversation (plus `next`),
 * with retrieved knowledge in its share of the budget (see `knowledgeRoom`).
 */
export function createContextAssembler(
  ctx: EngineContext,
  state: SessionState,
  shortTerm: readonly ShortTermStrategy[],
): (options?: ContextOptions) => Promise<MemoryContext> {
  const id = state.id;
  const retrieval = knowledgeTargets(ctx).find(
    (t) => t.config.knowledge_base?.search_mode === 'always',
  )?.config.knowledge_base;
  const retrieving = retrieval !== undefined && ctx.knowledgeBase !== undefined;
  const knowledgeShare = retrieval?.knowledge_share ?? 0;
  const topK = retrieval?.top_k ?? 0;
  const select = (
    system: readonly CountedMessage[],
    knowledge: CountedMessage | undefined,
    interactions: readonly Interaction[],
  ) =>
    selectWindow(
      { system: knowledge === undefined ? system : [...system, knowledge], interactions },
      shortTerm,
      ctx.counter.replyPrimingTokens,
    );
  const factsConfig = ctx.profile.config.user_facts;
  /**
   * The user's facts block, read from the store at every call (other processes write facts);
   * counted again only when what it shows could differ: another user, counter, or facts (by
   * id, time and text, not by version: versions restart at 0 after `forgetUser`).
   */
  let lastFacts:
    | { userId: string; key: string; counter: unknown; message: CountedMessage | undefined }
    | undefined;
  const factsBlock = async (): Promise<CountedMessage | undefined> => {
    const userId = state.userId;
    if (userId === undefined || factsConfig === null || factsConfig.max_tokens <= 0) return;
    const { facts } = await ctx.store.userFacts(userId);
    const key = facts.map((f) => `${f.id}\u0000${f.updatedAt}\u0000${f.text}`).join('\u0001');
    if (
      lastFacts?.userId === userId &&
      lastFacts.key === key &&
      lastFacts.counter === ctx.counter
    ) {
      return lastFacts.message;
    }
    const message = userFactsMessage(ctx.counter, facts, factsConfig.max_tokens);
    lastFacts = { userId, key, counter: ctx.counter, message };
    return message;
  };

  // The query of the last call, by the user messages it was made of (the same objects until
  // the session changes): a context built again for the same question skips the analysis.
  let lastRecall:
    | { newest: Message; previous: Message | undefined; query: string | undefined }
    | undefined;
  const recall = (interactions: readonly Interaction[]): string | undefined => {
    const newest = interactions.at(-1)?.messages[0];
    const previous = interactions.at(-2)?.messages[0];
    if (newest === undefined) return undefined;
    if (newest === lastRecall?.newest && previous === lastRecall.previous) return lastRecall.query;
    const query = recallQuery(interactions);
    lastRecall = { newest, previous, query };
    return query;
  };

  return async (options: ContextOptions = {}): Promise<MemoryContext> => {
    const next = countNext(ctx, options.next);
    await state.sync(ctx.store);
    const interactions = withNext(state.log.interactions, next);
    const system = withUserFacts(state.log.system, await factsBlock());
    if (!retrieving) {
      const plain = select(system, undefined, interactions);
      return {
        messages: selectionMessages(plain),
        tokenCount: plain.tokenCount,
        truncated: plain.truncated,
        knowledge: [],
      };
    }
    const query = recall(interactions);
    const room = knowledgeRoom(
      ctx,
      system,
      interactions,
      shortTerm.length > 0 ? ctx.profile.shortTerm : [],
      knowledgeShare,
      topK,
      id,
    );
    const key =
      query === undefined
        ? undefined
        : `${state.userId ?? ''}\n${interactions.at(-1)?.messages[0]?.id}\n${query}`;
    const cached =
      key !== undefined && state.knowledge?.key === key ? state.knowledge.found : undefined;
    // Hits on interactions the window claims are dropped as repeats: ask for that many more.
    let shown = 0;
    for (let i = interactions.length - 1; i >= 0; i--, shown++) {
      if (!room.shown.has(interactions[i]!.messages[0]!.id)) break;
    }
    const search = async (deep: boolean) => {
      try {
        const options = { userId: state.userId, tokens: room.tokens, deep };
        return await searchKnowledge(ctx, id, query, shown, options);
      } catch (error) {
        ctx.events.emit('knowledge:error', { sessionId: id, operation: 'search', error });
        return [];
      }
    };
    let found = cached ?? (await search(false));
    let knowledge = knowledgeMessage(ctx, hitsOf(found), room);
    // A shallow search that leaves over a quarter of the room empty, while more hits may be
    // there, is made again for every hit `top_k` allows (smaller ones may fit).
    if (found.some((f) => f.more) && underFilled(knowledge, room)) {
      found = await search(true);
      knowledge = knowledgeMessage(ctx, hitsOf(found), room);
    }
    // Only the stored conversation's search is kept: `next` messages change every call.
    if (found !== cached && next.length === 0) {
      state.knowledge = key === undefined ? undefined : { key, found };
    }
    let selection = select(system, knowledge.message, interactions);
    // The window may have grown into room knowledge left unused: repeat nothing it now shows
    // (dropping hits only frees room, so the window keeps all it had).
    if (knowledge.hits.length > 0) {
      // The room holds whole interactions: one message of an interaction shown, all are.
      const grown = new Set<string>();
      for (const i of selection.interactions) {
        const first = i.messages[0];
        if (first === undefined || room.shown.has(first.id)) continue;
        for (const m of i.messages) grown.add(m.id);
      }
      const shown = { has: (id: string) => room.shown.has(id) || grown.has(id) };
      if (grown.size > 0 && knowledge.hits.some((h) => isRepeat(h, shown, id))) {
        knowledge = knowledgeMessage(ctx, knowledge.hits, { ...room, shown });
        selection = select(system, knowledge.message, interactions);
      }
    }
    return {
      messages: selectionMessages(selection),
      tokenCount: selection.tokenCount,
      truncated: selection.truncated,
      knowledge: knowledge.hits,
    };
  };
}

const hitsOf = (found: readonly { hits: KnowledgeHit[] }[]) => found.flatMap((f) => f.hits);

/** The knowledge message holds fewer hits than allowed in under three quarters of its room. */
function underFilled(
  knowledge: { message: CountedMessage | undefined; hits: readonly KnowledgeHit[] },
  room: KnowledgeRoom,
): boolean {
  if (knowledge.hits.length >= room.maxHits) return false;
  return (knowledge.message?.tokenCount ?? 0) < 0.75 * room.tokens;
}
