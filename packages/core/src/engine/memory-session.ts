import { summarizerStrategySchema } from '../config/profile-schema.ts';
import type { KnowledgeHit } from '../knowledge/knowledge-base-spec.ts';
import type { Interaction } from '../model/interaction.ts';
import { type CountedMessage, isSummaryMessage } from '../model/message.ts';
import type { StoredMessage, SummaryRecord } from '../store/store-spec.ts';
import type { ShortTermStrategy } from '../strategies/short-term/short-term-strategy.ts';
import { selectionMessages, selectWindow } from '../strategies/short-term/short-term-strategy.ts';
import { withTokenCount } from '../tokens/token-counter.ts';
import { compactSession } from './compact-session.ts';
import type { EngineContext } from './engine-context.ts';
import { conditionErrorReporter } from './engine-events.ts';
import { eraseSession } from './erase-session.ts';
import {
  forgetInKnowledgeBase,
  indexInteractions,
  knowledgeTargets,
  searchKnowledge,
} from './knowledge-index.ts';
import { isRepeat, knowledgeMessage, knowledgeRoom } from './knowledge-message.ts';
import { type MessageInput, messageFromInput } from './message-input.ts';
import { countNext, withNext } from './next-messages.ts';
import { recallQuery } from './recall-query.ts';
import type { SessionState } from './session-state.ts';
import { type AppendedFacts, appendedFacts, TriggerCounter } from './triggers.ts';

const defaultSummarizerConfig = summarizerStrategySchema.parse({
  long_term_memory_id: 'summarizer',
  interaction_keep: 0,
});

export type { MessageInput };

/**
 * What `append` returns: the messages as the store holds them (seq and token count included).
 * `duplicate` is true when the idempotency key had been applied before: nothing was written, and
 * the messages are those of the first append (the ones still active: a compaction or erasure
 * since may have moved some out).
 */
export type AppendedMessages = StoredMessage[] & { readonly duplicate: boolean };

export interface AppendOptions {
  /** Usage the provider reported for the LLM call that produced these messages. */
  usage?: { inputTokens: number; outputTokens?: number };
  /** Makes a retried append add nothing. Default: a fresh key per call. */
  idempotencyKey?: string;
}

export interface SummarizeNowOptions {
  keepInteractions?: number;
  instructions?: string | null;
  /** Summary length in tokens. Default: the engine's compressionRatio x what it replaces. */
  targetTokens?: number;
}

export interface ContextOptions {
  /** Messages to end the context with, not stored: checked and counted like `append`'s. */
  next?: MessageInput | MessageInput[];
}

/** What to send to the LLM next, and why. */
export interface MemoryContext {
  /** System prompts, the summary, retrieved knowledge, then the window; a valid prompt. */
  messages: CountedMessage[];
  /** Prompt tokens of `messages` plus reply priming. */
  tokenCount: number;
  /** The newest interaction was cut to fit the budget. */
  truncated: boolean;
  /** Knowledge-base chunks included, best first. */
  knowledge: KnowledgeHit[];
}

export interface MemorySession {
  readonly id: string;
  /** Counts the messages once, stores them, then checks the long-term triggers (in the background). */
  append(
    messages: MessageInput | MessageInput[],
    options?: AppendOptions,
  ): Promise<AppendedMessages>;
  /**
   * The messages for the next LLM call. `next`: messages the call will end with that are not
   * stored (yet), e.g. the user's new question: they count against the budget and the newest
   * user message among them is what knowledge is searched for. Nothing is written.
   */
  context(options?: ContextOptions): Promise<MemoryContext>;
  /** The active conversation: summaries, pinned system prompts and the turns they did not replace. */
  messages(): Promise<StoredMessage[]>;
  /** Every surviving original message, oldest first: summaries expanded into what they replaced. */
  history(): Promise<StoredMessage[]>;
  summaries(): Promise<SummaryRecord[]>;
  /** Runs every long-term strategy whose trigger holds now, and waits for it. */
  compact(options?: { force?: boolean }): Promise<void>;
  /**
   * Summarizes now, whatever the triggers say: everything older than the last
   * `keepInteractions` interactions (default: the profile's summarizer `interaction_keep`, else
   * 0). Waits for runs in flight first. Resolves true when a summary was committed.
   */
  summarizeNow(options?: SummarizeNowOptions): Promise<boolean>;
  /** Waits for long-term runs in flight. */
  idle(): Promise<void>;
  clear(): Promise<boolean>;
}

export function createSession(
  ctx: EngineContext,
  state: SessionState,
  shortTerm: readonly ShortTermStrategy[],
): MemorySession {
  const id = state.id;
  const triggers = ctx.profile.longTerm.map(
    (e) =>
      new TriggerCounter(
        e.config,
        e.interactionConditions,
        conditionErrorReporter(ctx.events, id, 'trigger'),
      ),
  );
  const collections = ctx.profile.longTerm.flatMap((e) =>
    e.config.long_term_memory_id === 'summarizer' && e.config.knowledge_base !== null
      ? [e.config.knowledge_base.collection_id]
      : [],
  );

  const ensureLoaded = () => state.sync(ctx.store);
  const retrieval = knowledgeTargets(ctx).find(
    (t) => t.config.knowledge_base?.search_mode === 'always',
  )?.config.knowledge_base;
  const retrieving = retrieval !== undefined && ctx.knowledgeBase !== undefined;
  const knowledgeShare = retrieval?.knowledge_share ?? 0;
  const topK = retrieval?.top_k ?? 0;
  const indexing = knowledgeTargets(ctx).length > 0;
  const indexFinished = async (): Promise<void> => {
    const todo = state.unindexed();
    if (todo.interactions.length === 0) return;
    try {
      await indexInteractions(ctx, id, todo.interactions, todo.before);
      const seq = todo.interactions.at(-1)!.messages.at(-1)!.seq;
      state.indexedSeq = Math.max(state.indexedSeq ?? 0, seq);
    } catch (error) {
      ctx.events.emit('knowledge:error', { sessionId: id, operation: 'index', error });
    }
  };
  /**
   * Indexing runs one at a time, each on the state as it is when it starts, once the caller's
   * own work has yielded to the event loop (typically while it waits for the LLM).
   */
  const queueIndexing = (): void => {
    const run = (state.indexing ?? Promise.resolve()).then(afterCurrentWork).then(indexFinished);
    state.indexing = run;
    void run.finally(() => {
      if (state.indexing === run) state.indexing = undefined;
    });
  };
  const select = (knowledge: CountedMessage | undefined, interactions: readonly Interaction[]) =>
    selectWindow(
      {
        system: knowledge === undefined ? state.log.system : [...state.log.system, knowledge],
        interactions,
      },
      shortTerm,
      ctx.counter.replyPrimingTokens,
    );

  const due = (facts: AppendedFacts | undefined, force: boolean): Map<number, boolean> => {
    const out = new Map<number, boolean>();
    triggers.forEach((trigger, i) => {
      const reasons = force
        ? ['forced']
        : trigger.reasons(state.log.interactions, state.epoch, state.lastInputTokens, facts);
      if (reasons.length === 0) return;
      ctx.events.emit('triggered', {
        sessionId: id,
        strategy: trigger.config.long_term_memory_id,
        strategyIndex: i,
        reasons,
      });
      // Tool and forced triggers are events: they hold even if the counts drop meanwhile.
      out.set(i, force || reasons.some((r) => r.startsWith('on_tools_')));
    });
    return out;
  };

  /** Strategy index -> whether it runs unconditionally (else its trigger is re-checked). */
  const pending = new Map<number, boolean>();
  const stillDue = (i: number): boolean =>
    pending.get(i) === true ||
    triggers[i]!.reasons(state.log.interactions, state.epoch, state.lastInputTokens, undefined)
      .length > 0;
  const schedule = (indexes: Map<number, boolean>): Promise<void> => {
    for (const [i, always] of indexes) pending.set(i, always || pending.get(i) === true);
    if (pending.size === 0) return state.running ?? Promise.resolve();
    if (state.running !== undefined) {
      state.rerun = true;
      return state.running;
    }
    const run = async () => {
      do {
        state.rerun = false;
        for (const i of [...pending.keys()].sort((a, b) => a - b)) {
          const entry = ctx.profile.longTerm[i]!.config;
          try {
            await state.sync(ctx.store);
            // Queued while another run went on: run only if the trigger still holds.
            const go = stillDue(i);
            pending.delete(i);
            if (!go) continue;
            const changed =
              entry.long_term_memory_id === 'summarizer'
                ? await compactSession(ctx, state, entry)
                : await eraseSession(ctx, state, entry, collections, i);
            if (changed) state.lastInputTokens = undefined;
          } catch (error) {
            pending.delete(i);
            ctx.events.emit('compaction:error', { sessionId: id, error });
          }
        }
      } while (state.rerun && pending.size > 0);
    };
    state.running = run().finally(() => {
      state.running = undefined;
    });
    return state.running;
  };

  return {
    id,
    async append(input, options = {}) {
      const list: unknown[] = Array.isArray(input) ? input : [input];
      const defaults = { newId: ctx.newId, now: ctx.now() };
      const counted = list.map((m, i) =>
        withTokenCount(messageFromInput(m, i, defaults), ctx.counter),
      );
      await ensureLoaded();
      const result = await ctx.store.append(id, counted, {
        idempotencyKey: options.idempotencyKey ?? ctx.newId(),
      });
      if (result.duplicate) {
        // Nothing was written: answer with what the first append stored.
        await state.sync(ctx.store);
        const { messages } = await ctx.store.read(id, {
          afterSeq: result.firstSeq - 1,
          beforeSeq: result.lastSeq + 1,
        });
        return Object.assign(messages, { duplicate: true });
      }
      const stored = counted.map((m, i) => ({ ...m, seq: result.firstSeq + i }));
      if (result.epoch === state.epoch && result.firstSeq === state.lastSeq + 1) {
        state.apply(stored, result.version);
      } else {
        await state.sync(ctx.store);
      }
      if (options.usage !== undefined) state.lastInputTokens = options.usage.inputTokens;
      // A user message finishes the interaction before it: it is indexed in the background
      // (it is the newest before this one, so the window shows it meanwhile).
      if (indexing && counted.some((m) => m.role === 'user')) queueIndexing();
      ctx.events.emit('appended', {
        sessionId: id,
        messageIds: counted.map((m) => m.id),
        version: result.version,
      });
      void schedule(due(appendedFacts(counted), false));
      return Object.assign(stored, { duplicate: false });
    },

    async context(options = {}) {
      const next = countNext(ctx, options.next);
      await ensureLoaded();
      const interactions = withNext(state.log.interactions, next);
      if (!retrieving) {
        const plain = select(undefined, interactions);
        return {
          messages: selectionMessages(plain),
          tokenCount: plain.tokenCount,
          truncated: plain.truncated,
          knowledge: [],
        };
      }
      const query = recallQuery(interactions);
      const room = knowledgeRoom(
        ctx,
        state.log.system,
        interactions,
        shortTerm.length > 0 ? ctx.profile.shortTerm : [],
        knowledgeShare,
        topK,
      );
      const key =
        query === undefined ? undefined : `${interactions.at(-1)?.messages[0]?.id}\n${query}`;
      let found =
        key !== undefined && state.knowledge?.key === key ? state.knowledge.found : undefined;
      if (found === undefined) {
        try {
          // Hits on interactions the window claims are dropped as repeats: ask for that many more.
          let shown = 0;
          for (let i = interactions.length - 1; i >= 0; i--, shown++) {
            if (!room.shown.has(interactions[i]!.messages[0]!.id)) break;
          }
          found = await searchKnowledge(ctx, id, query, shown);
        } catch (error) {
          ctx.events.emit('knowledge:error', { sessionId: id, operation: 'search', error });
          found = [];
        }
        // Only the stored conversation's search is kept: `next` messages change every call.
        if (next.length === 0) state.knowledge = key === undefined ? undefined : { key, found };
      }
      let knowledge = knowledgeMessage(
        ctx,
        found.flatMap((f) => f.hits),
        room,
      );
      let selection = select(knowledge.message, interactions);
      // The window may have grown into room knowledge left unused: repeat nothing it now shows
      // (dropping hits only frees room, so the window keeps all it had).
      const shown = new Set(room.shown);
      if (knowledge.hits.length > 0) {
        for (const i of selection.interactions) for (const m of i.messages) shown.add(m.id);
      }
      if (knowledge.hits.some((h) => isRepeat(h, shown))) {
        knowledge = knowledgeMessage(ctx, knowledge.hits, { ...room, shown });
        selection = select(knowledge.message, interactions);
      }
      return {
        messages: selectionMessages(selection),
        tokenCount: selection.tokenCount,
        truncated: selection.truncated,
        knowledge: knowledge.hits,
      };
    },

    async messages() {
      await ensureLoaded();
      return (await ctx.store.read(id)).messages;
    },

    async history() {
      await ensureLoaded();
      const out: StoredMessage[] = [];
      const expand = async (messages: readonly StoredMessage[]): Promise<void> => {
        for (const m of messages) {
          if (isSummaryMessage(m)) await expand(await ctx.store.archived(id, m.id));
          else out.push(m);
        }
      };
      await expand((await ctx.store.read(id)).messages);
      return out;
    },

    summaries: () => ctx.store.summaries(id),

    async compact(options = {}) {
      await ensureLoaded();
      await schedule(due(undefined, options.force === true));
      await (state.running ?? Promise.resolve());
    },

    async summarizeNow(options = {}) {
      await ensureLoaded();
      while (state.running !== undefined) await state.running;
      const base = ctx.profile.longTerm.find((e) => e.config.long_term_memory_id === 'summarizer');
      const config = {
        ...(base?.config.long_term_memory_id === 'summarizer'
          ? base.config
          : defaultSummarizerConfig),
        ...(options.keepInteractions === undefined
          ? {}
          : { interaction_keep: options.keepInteractions }),
        ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
      };
      const overrides =
        options.targetTokens === undefined ? {} : { targetTokens: options.targetTokens };
      const run = compactSession(ctx, state, config, overrides);
      state.running = run.then(
        () => undefined,
        () => undefined,
      );
      try {
        return await run;
      } finally {
        state.running = undefined;
      }
    },

    idle: async () => {
      for (let busy = state.busy; busy !== undefined; busy = state.busy) await busy;
    },

    async clear() {
      // A compaction in flight is not awaited: it loses its compare-and-swap against the clear.
      const existed = await ctx.store.clear(id);
      state.reset();
      // Indexing that read the old conversation finishes before its chunks are forgotten; any
      // started after the reset sees the cleared one.
      await state.settleIndexing();
      await forgetInKnowledgeBase(ctx, id, collections, {});
      ctx.events.emit('cleared', { sessionId: id });
      return existed;
    },
  };
}

/** Resolves on a later turn of the event loop, after the current chain of promises. */
const afterCurrentWork = (): Promise<void> =>
  new Promise((resolve) => {
    if (typeof setImmediate === 'function') setImmediate(resolve);
    else setTimeout(resolve, 0);
  });
