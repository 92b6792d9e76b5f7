import {
  isSummarizerConfig,
  type SummarizerStrategyConfig,
  summarizerStrategySchema,
} from '../config/profile-schema.ts';
import { MemStoreError, MemValidationError } from '../errors/errors.ts';
import { isSummaryMessage } from '../model/message.ts';
import type { StoredMessage, SummaryRecord } from '../store/store-spec.ts';
import { summarizerStrategy } from '../strategies/long-term/builtin-strategies.ts';
import { appendedFacts } from '../strategies/long-term/triggers.ts';
import type { ShortTermStrategy } from '../strategies/short-term/short-term-strategy.ts';
import {
  type ContextOptions,
  createContextAssembler,
  type MemoryContext,
} from './assemble-context.ts';
import type { EngineContext } from './engine-context.ts';
import { createFactExtraction } from './fact-extraction.ts';
import { flushes, flushSession } from './flush-session.ts';
import { forgetInKnowledgeBase } from './knowledge-index.ts';
import { createLongTermRuns } from './long-term-runs.ts';
import { countedFromInput, type MessageInput } from './message-input.ts';
import type { Countings } from './model-countings.ts';
import { runStrategy } from './run-strategy.ts';
import type { CountedPrompt, SessionState } from './session-state.ts';
import { createTurnIndexing } from './turn-indexing.ts';

export type { ContextOptions, MemoryContext };

/** `context()`'s options on a session: `ContextOptions` and the model the prompt is for. */
export interface SessionContextOptions extends ContextOptions {
  /**
   * The model this prompt is for (e.g. `claude-sonnet-4-5`): counts follow it from now on. A
   * change of counting recounts the session's messages once; later calls without `model` keep it.
   */
  model?: string;
}

/** What a session needs of the engine to count per model and report provider usage. */
export interface SessionModels {
  readonly countings: Countings;
  /** Called when an append reports usage for the prompt of the last `context()`. */
  compared(prompt: CountedPrompt, reportedInputTokens: number): void;
}

// Parsed on first use, not at import: a zod parse compiles the schema (milliseconds of cold start).
let defaultSummarizerConfig: SummarizerStrategyConfig | undefined;
const defaultSummarizer = (): SummarizerStrategyConfig =>
  (defaultSummarizerConfig ??= summarizerStrategySchema.parse({
    long_term_memory_id: 'summarizer',
    interaction_keep: 0,
  }));

export type { MessageInput };

/**
 * What `append` returns: the messages as the store holds them (seq and token count included).
 * `duplicate` is true when the idempotency key had been applied before: nothing was written, and
 * the messages are those of the first append (the ones still active: a compaction or erasure
 * since may have moved some out).
 */
export type AppendedMessages = StoredMessage[] & { readonly duplicate: boolean };

export interface SessionAppendOptions {
  /**
   * Usage the provider reported for the LLM call that produced these messages. `inputTokens`
   * drives `input_tokens_threshold`, and is compared with the last `context()`'s count
   * (`engine.tokenAccuracy()`, event `tokens:compared`).
   */
  usage?: { inputTokens: number; outputTokens?: number };
  /** The model that produced these messages and reads the next prompt: as `context({ model })`. */
  model?: string;
  /** Makes a retried append add nothing. Default: a fresh key per call. */
  idempotencyKey?: string;
}

export interface SummarizeNowOptions {
  keepInteractions?: number;
  instructions?: string | null;
  /** Summary length in tokens. Default: the engine's compressionRatio x what it replaces. */
  targetTokens?: number;
}

export interface MemorySession {
  readonly id: string;
  /**
   * The user the session belongs to: the handle's (`engine.session(id, { userId })`), or the one
   * the store has it bound to once read; undefined for a session without a user.
   */
  readonly userId: string | undefined;
  /** Counts the messages once, stores them, then checks the long-term triggers (in the background). */
  append(
    messages: MessageInput | MessageInput[],
    options?: SessionAppendOptions,
  ): Promise<AppendedMessages>;
  /**
   * The messages for the next LLM call. `next`: messages the call will end with that are not
   * stored (yet), e.g. the user's new question: they count against the budget and the newest
   * user message among them is what knowledge is searched for. Nothing is written.
   */
  context(options?: SessionContextOptions): Promise<MemoryContext>;
  /**
   * The active conversation: summaries, pinned system prompts and the turns they did not replace.
   * `last`: only the newest that many (a tail read: costs O(last), not O(session)).
   */
  messages(options?: { last?: number }): Promise<StoredMessage[]>;
  /**
   * Every surviving original message, oldest first: summaries expanded into what they replaced.
   * A summary whose originals are gone (FLUSH persistence drops them) stands for them itself.
   */
  history(): Promise<StoredMessage[]>;
  /**
   * One record per summary the session ever made, oldest first: what it replaced (ids, seq and
   * time range), its tokens and compression ratio. A record holds no text: the text is a
   * message. The active summary is the message of `messages()` (and `context()`) whose id is
   * `record.id` (a `system` message with `metadata.kind === 'summary'`, see
   * `isSummaryMessage`); its content is the header line "Summary of the earlier conversation"
   * then the text. A summary folded into a newer one is archived with that newer summary's
   * originals: `store.archived(sessionId, newer.id)` holds it (`newer.previousSummaryId` names
   * it).
   *
   * @example
   * const active = new Map((await session.messages()).map((m) => [m.id, m]));
   * for (const record of await session.summaries()) {
   *   const message = active.get(record.id); // undefined once folded into a newer summary
   *   if (message) console.log(record.compressionRatio, messageText(message));
   * }
   */
  summaries(): Promise<SummaryRecord[]>;
  /** Runs every long-term strategy whose trigger holds now, and waits for it. */
  compact(options?: { force?: boolean }): Promise<void>;
  /**
   * Summarizes now, whatever the triggers say: everything older than the last
   * `keepInteractions` interactions (default: the profile's summarizer `interaction_keep`, else
   * 0). Waits for runs in flight first. Resolves true when a summary was committed.
   */
  summarizeNow(options?: SummarizeNowOptions): Promise<boolean>;
  /** Waits for long-term runs and background indexing in flight. */
  idle(): Promise<void>;
  /**
   * Removes the newest stored message for good and returns it (`Store.pop`): atomic against
   * concurrent appends. Null when there is nothing to remove: an empty session, or one whose
   * newest active message is a summary (summaries leave only by `clear` or a neuralyzer).
   */
  pop(): Promise<StoredMessage | null>;
  clear(): Promise<boolean>;
}

/** True for a message that finishes an interaction (a user message) or answers it. */
const completes = (m: { role: string; toolCalls?: readonly unknown[] }): boolean =>
  m.role === 'user' || (m.role === 'assistant' && (m.toolCalls?.length ?? 0) === 0);

function checkLast(last: unknown): number | undefined {
  if (last === undefined) return undefined;
  if (typeof last !== 'number' || !Number.isSafeInteger(last) || last < 1) {
    throw new MemValidationError(
      'last',
      `[mem/core] messages({ last }) takes a whole number of messages from 1 up, got ${String(last)}; omit it for the whole conversation.`,
    );
  }
  return last;
}

export function createSession(
  ctx: EngineContext,
  state: SessionState,
  shortTerm: readonly ShortTermStrategy[],
  models: SessionModels,
): MemorySession {
  const id = state.id;
  const collections = ctx.profile.longTerm.flatMap((e) =>
    isSummarizerConfig(e.config) && e.config.knowledge_base !== null
      ? [e.config.knowledge_base.collection_id]
      : [],
  );
  const ensureLoaded = () => state.sync(ctx.store);
  const { due, schedule } = createLongTermRuns(ctx, state, collections);
  const indexing = createTurnIndexing(ctx, state);
  const facts = createFactExtraction(ctx, state);
  /** Reads the store's binding of the session once (see `SessionState.checkUser`). */
  const checkUser = () => state.checkUser(ctx.store);
  /** FLUSH: as after an inference; a failure is reported, the summary stays committed. */
  const flushAfter = () =>
    flushSession(ctx, state).catch((error: unknown) => {
      ctx.events.emit('flush:error', { sessionId: id, error });
    });
  const context = createContextAssembler(ctx, state, shortTerm);
  /** Counts follow `model` from now on (loading its tokenizer first); undefined: no change. */
  const useModel = async (model: unknown): Promise<void> => {
    if (model === undefined) return;
    const counting = models.countings.forModel(model, 'options.model');
    await counting.counter.ready?.();
    state.model = model as string;
    state.useCounting(counting);
  };

  return {
    id,
    get userId() {
      return state.userId;
    },
    async append(input, options = {}) {
      await useModel(options.model);
      const list: unknown[] = Array.isArray(input) ? input : [input];
      const defaults = { newId: ctx.newId, now: ctx.now() };
      const counted = list.map((m, i) => countedFromInput(m, i, defaults, ctx.counter));
      // A loaded session is not read again first: the append's result proves whether anything
      // changed underneath (same epoch, seqs right after the cached ones), else it is read after.
      // A first append loads before it: what it finishes is then known to be unindexed.
      if (!state.loaded) await state.load(ctx.store);
      // The first write naming the user binds the session to it, atomically (Store v3).
      const userId = state.userId;
      const result = await ctx.store.append(id, counted, {
        idempotencyKey: options.idempotencyKey ?? ctx.newId(),
        ...(userId === undefined ? {} : { userId }),
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
      if (options.usage !== undefined) {
        const reported = options.usage.inputTokens;
        state.lastInputTokens = reported;
        const prompt = state.lastPrompt;
        if (prompt !== undefined && Number.isSafeInteger(reported) && reported >= 0) {
          state.lastPrompt = undefined;
          models.compared(prompt, reported);
        }
      }
      // A user message finishes the interaction before it, an answer completes one: it is
      // indexed in the background (so the session's last turn is found from the user's other
      // sessions too), and its facts are extracted (a session with a user).
      if (counted.some(completes)) {
        if (indexing.enabled) indexing.queue();
        facts.queue();
      }
      ctx.events.emit('appended', {
        sessionId: id,
        messageIds: counted.map((m) => m.id),
        version: result.version,
      });
      void schedule(due(appendedFacts(counted), false));
      return Object.assign(stored, { duplicate: false });
    },

    async context(options = {}) {
      await useModel(options.model);
      const built = await context(options);
      state.lastPrompt = {
        model: state.model,
        encoding: ctx.counter.encoding,
        tokens: built.tokenCount,
      };
      return built;
    },

    async messages(options = {}) {
      const last = checkLast(options.last);
      await checkUser();
      // Straight from the store: the engine's cache is not needed (nor brought up to date) here.
      const read =
        last === undefined
          ? await ctx.store.read(id)
          : await ctx.store.read(id, { from: 'end', limit: last });
      return read.messages;
    },

    async history() {
      await ensureLoaded();
      const out: StoredMessage[] = [];
      const expand = async (messages: readonly StoredMessage[]): Promise<void> => {
        for (const m of messages) {
          const originals = isSummaryMessage(m) ? await ctx.store.archived(id, m.id) : [];
          if (originals.length > 0) await expand(originals);
          else out.push(m);
        }
      };
      await expand((await ctx.store.read(id)).messages);
      return out;
    },

    async summaries() {
      await checkUser();
      return ctx.store.summaries(id);
    },

    async compact(options = {}) {
      await ensureLoaded();
      await schedule(due(undefined, options.force === true));
      await (state.running ?? Promise.resolve());
    },

    async summarizeNow(options = {}) {
      await ensureLoaded();
      while (state.running !== undefined) await state.running;
      const base = ctx.profile.longTerm.map((e) => e.config).find(isSummarizerConfig);
      const config = {
        ...(base ?? defaultSummarizer()),
        ...(options.keepInteractions === undefined
          ? {}
          : { interaction_keep: options.keepInteractions }),
        ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
      };
      const overrides =
        options.targetTokens === undefined ? {} : { targetTokens: options.targetTokens };
      const run = runStrategy(ctx, state, summarizerStrategy, config, {
        index: -1,
        collections,
        overrides,
      }).then(async (changed) => {
        if (flushes(ctx)) await flushAfter();
        return changed;
      });
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

    async pop() {
      // Stores written before `pop` joined the spec still run everything else.
      if (typeof ctx.store.pop !== 'function') {
        throw new MemStoreError(
          '[mem/core] this store has no pop(); implement Store.pop (remove and return the newest active message) to use session.pop().',
        );
      }
      await ensureLoaded();
      const { message } = await ctx.store.pop(id);
      // The pop bumped the epoch: reload, as after another writer's rewrite.
      if (message !== null) await state.load(ctx.store);
      return message;
    },

    async clear() {
      await checkUser();
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
