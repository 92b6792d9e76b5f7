import { type MemoryProfile, parseProfile } from '../config/parse-profile.ts';
import { isSummarizerConfig } from '../config/profile-schema.ts';
import { MemValidationError } from '../errors/errors.ts';
import { TypedEmitter } from '../events/typed-emitter.ts';
import type { FactExtractor } from '../facts/fact-extractor.ts';
import { createRuleFactExtractor } from '../facts/rule-extractor.ts';
import { createInMemoryKnowledgeBase } from '../knowledge/in-memory-knowledge-base.ts';
import type { KnowledgeBase } from '../knowledge/knowledge-base-spec.ts';
import { createInMemoryStore } from '../store/in-memory-store.ts';
import type { Store } from '../store/store-spec.ts';
import { assertValidSessionId, assertValidUserId } from '../store/validate-ids.ts';
import type { LongTermStrategy } from '../strategies/long-term/long-term-strategy.ts';
import { longTermRegistry, registeredOnly } from '../strategies/long-term/strategy-registry.ts';
import { createShortTermStrategies } from '../strategies/short-term/from-profile.ts';
import { createMaxTokensStrategy } from '../strategies/short-term/max-tokens-strategy.ts';
import { MIN_EXTRACTIVE_SUMMARY_TOKENS } from '../summarize/extractive-summarizer.ts';
import type { Summarizer } from '../summarize/summarizer.ts';
import type { SummaryGate } from '../summarize/summary-gate.ts';
import { readyGate } from '../tokens/ready-gate.ts';
import type { TokenCounter } from '../tokens/token-counter.ts';
import type { EngineContext } from './engine-context.ts';
import {
  conditionErrorReporter,
  type EngineEvents,
  type MemoryEngineEvent,
  type MemoryEngineEvents,
} from './engine-events.ts';
import { createSession, type MemorySession } from './memory-session.ts';
import { createCountings, sessionCounting, type TokenCounterForModel } from './model-countings.ts';
import { checkParts } from './resolve-parts.ts';
import { type CachedSession, forwarding, sessionUser } from './session-handle.ts';
import { otherUser, SessionState } from './session-state.ts';
import { type TokenAccuracy, TokenAccuracyStats } from './token-accuracy.ts';
import {
  createUserMemory,
  type ForgetUserReport,
  forgetUserData,
  type UserMemory,
} from './user-memory.ts';

export type { ForgetUserReport, UserMemory };

export interface MemoryEngineOptions {
  /** A parsed profile, or profile JSON (bare or `{ "profile": ... }`), validated here. */
  profile: MemoryProfile | unknown;
  /**
   * Long-term strategies of your own, next to `summarizer` and `neuralyzer`: profile entries
   * name them by `long_term_memory_id`, with the shared trigger fields and their own `fields`.
   */
  // biome-ignore lint/suspicious/noExplicitAny: strategies of any config type.
  longTermStrategies?: readonly LongTermStrategy<any>[];
  /** Where sessions live. Default: an in-memory store. */
  store?: Store;
  /** Summarizes for the summarizer strategy. Default: the extractive (no-LLM) summarizer. */
  summarizer?: Summarizer;
  /** Deadline of one summarization, ms (`null`: none). Default 30,000. */
  summarizerTimeout?: number | null;
  /** Where summaries and archived turns are indexed. Default: in memory, when the profile has a `knowledge_base`. */
  knowledgeBase?: KnowledgeBase;
  /**
   * The model the prompts are for, as your provider spells it (`gpt-4o`, `claude-sonnet-4-5`,
   * `anthropic/claude-3.5-sonnet`, ...): picks how tokens are counted (README: "Token counts per
   * model"). A call can name another (`context({ model })`, `append(..., { model })`). Default:
   * none, counted with o200k_base.
   */
  model?: string;
  /**
   * Counts tokens instead of the counter the model picks: one counter for every model, or a
   * function returning the counter for a model id (called once per id; `undefined`: no model).
   */
  tokenCounter?: TokenCounter | TokenCounterForModel;
  /** Summary length as a share of what it replaces. Default 0.3. */
  compressionRatio?: number;
  /**
   * Upper bound of a summary's text, in tokens, with or without a short-term window (with one,
   * the summary message is also held to half the tightest window). A longer summarizer reply is
   * rejected and the extractive fallback, which stays within it, is stored. The stored message
   * adds a one-line header. An integer >= 64. Default 2,000.
   */
  maxSummaryTokens?: number;
  /**
   * What tells a summary from an error text, a refusal or an off-topic reply before it replaces
   * history: `'default'`, `'errors-only'`, `'off'` or your own function (see `SummaryGate`). A
   * rejected summary is replaced by the extractive one; `summarizer:fallback` says why.
   */
  summaryGate?: SummaryGate;
  /**
   * How many sessions the engine keeps cached (their newest messages, counters, pending work),
   * least recently used first out. A session with background work in flight stays until it is
   * done. An evicted session is read again from the store on its next call; handles taken
   * before keep working. An integer >= 1. Default 1,000: one engine per process can serve any
   * number of sessions in bounded memory.
   */
  maxCachedSessions?: number;
  /**
   * Learns durable facts about a user from each finished interaction of a session that has one
   * (in the background; profile `user_facts.extraction`). Default: the rules extractor (no model:
   * explicit self-statements such as name, location, work, preferences, "remember that ...",
   * and corrections). `null`: facts change only through `engine.user(id)`. LLM extractors:
   * `@mem/summarizers`.
   */
  factExtractor?: FactExtractor | null;
  now?: () => number;
}

/** `engine.session()`'s options. */
export interface SessionOptions {
  /**
   * The user the session belongs to: stored with it on its first write, so its knowledge is
   * searchable from the user's other sessions (`knowledge_base.scope`), the user's facts join its
   * prompt, and `forgetUser` erases it. A session stored for another user is refused
   * (`MemValidationError`, field `userId`).
   */
  userId?: string;
}

export interface MemoryEngine {
  readonly profile: MemoryProfile;
  readonly store: Store;
  readonly knowledgeBase: KnowledgeBase | undefined;
  /** The counter for calls that name no model. */
  readonly tokenCounter: TokenCounter;
  /**
   * Per model: what mem counted for prompts vs the `inputTokens` the provider reported for them
   * (each `append(..., { usage })` after a `context()`); also emitted as `tokens:compared`.
   */
  tokenAccuracy(): TokenAccuracy[];
  /** A handle on one conversation; cheap, and the same state is shared by every handle. */
  session(sessionId: string, options?: SessionOptions): MemorySession;
  /** A user's facts and sessions (`SessionOptions.userId`). */
  user(userId: string): UserMemory;
  /**
   * Erases everything of the user from the store and the knowledge base: every session (messages,
   * archive, summaries, idempotency keys), every chunk and vector, and the facts. Waits for the
   * user's background work first. Idempotent and resumable: after a crash half-way, run it
   * again. Other users are never touched. Stop using the user's sessions before calling it.
   */
  forgetUser(userId: string): Promise<ForgetUserReport>;
  on<E extends MemoryEngineEvent>(
    event: E,
    listener: (payload: MemoryEngineEvents[E]) => void,
  ): () => void;
  /** Waits for every long-term run in flight (all sessions). */
  idle(): Promise<void>;
  /** Replaces the summarizer used from the next summarization on (`undefined`: extractive). */
  setSummarizer(summarizer: Summarizer | undefined): void;
}

function isParsed(profile: unknown): profile is MemoryProfile {
  return (
    typeof profile === 'object' &&
    profile !== null &&
    'config' in profile &&
    'shortTerm' in profile &&
    'longTerm' in profile
  );
}

/**
 * The memory engine (Alquimia flow): per inference, long-term strategies run first (summarize
 * or erase old history when a trigger fires), then the short-term strategies choose the prompt
 * from what remains. Long-term runs happen in the background: `append` never waits for them.
 */
export function createMemoryEngine(options: MemoryEngineOptions): MemoryEngine {
  checkParts(options);
  const strategies = longTermRegistry(options.longTermStrategies);
  const profile = isParsed(options.profile)
    ? options.profile
    : parseProfile(options.profile, { longTermStrategies: registeredOnly(strategies) });
  profile.longTerm.forEach(({ config }, i) => {
    if (strategies.has(config.long_term_memory_id)) return;
    throw new MemValidationError(
      `profile.long_term_memory_strategy[${i}].long_term_memory_id`,
      `[mem/core] The profile names long-term strategy "${config.long_term_memory_id}", which is not registered: pass it in createMemoryEngine({ longTermStrategies }).`,
    );
  });
  const ratio = options.compressionRatio ?? 0.3;
  if (!(ratio > 0 && ratio < 1)) {
    throw new MemValidationError(
      'compressionRatio',
      '[mem/core] compressionRatio must be between 0 and 1 (exclusive), e.g. 0.3.',
    );
  }
  const timeout = options.summarizerTimeout === undefined ? 30_000 : options.summarizerTimeout;
  if (timeout !== null && !(Number.isFinite(timeout) && timeout > 0)) {
    throw new MemValidationError(
      'summarizerTimeout',
      '[mem/core] summarizerTimeout must be a positive number of ms, or null for no deadline.',
    );
  }
  const maxSummaryTokens = options.maxSummaryTokens ?? 2000;
  if (!Number.isInteger(maxSummaryTokens) || maxSummaryTokens < MIN_EXTRACTIVE_SUMMARY_TOKENS) {
    throw new MemValidationError(
      'maxSummaryTokens',
      `[mem/core] maxSummaryTokens must be an integer >= ${MIN_EXTRACTIVE_SUMMARY_TOKENS} (the smallest summary the extractive fallback writes), got ${String(maxSummaryTokens)}.`,
    );
  }
  const maxCachedSessions = options.maxCachedSessions ?? 1000;
  if (!Number.isSafeInteger(maxCachedSessions) || maxCachedSessions < 1) {
    throw new MemValidationError(
      'maxCachedSessions',
      `[mem/core] maxCachedSessions must be an integer >= 1 (sessions kept cached), got ${String(maxCachedSessions)}.`,
    );
  }
  const persistence = profile.config.persistence_strategy;
  const userStore = options.store ?? createInMemoryStore();
  // INCREMENTAL and FLUSH write every change through to the user's store, atomically, and FLUSH
  // then makes the stored session exactly the conversation after each inference (flush-session.ts;
  // README: "persistence_strategy"); EPHEMERAL keeps the session in a private in-memory store.
  const working =
    persistence === 'EPHEMERAL'
      ? createInMemoryStore({ namespace: userStore.namespace })
      : userStore;
  const wantsKnowledge = profile.longTerm.some(
    (e) => isSummarizerConfig(e.config) && e.config.knowledge_base !== null,
  );
  const knowledgeBase =
    options.knowledgeBase ?? (wantsKnowledge ? createInMemoryKnowledgeBase() : undefined);
  const events: EngineEvents = new TypedEmitter();
  const reportWindowError = conditionErrorReporter(events, undefined, 'window');
  // Without a short-term strategy the whole conversation is sent, still made a valid prompt.
  const countings = createCountings({
    model: options.model,
    tokenCounter: options.tokenCounter,
    shortTerm: (counter) => {
      const configured = createShortTermStrategies(profile, counter, reportWindowError);
      return configured.length > 0
        ? configured
        : [createMaxTokensStrategy({ maxTokens: Number.MAX_SAFE_INTEGER, counter })];
    },
  });
  const counter = countings.default.counter;
  const accuracy = new TokenAccuracyStats();
  const ctx: EngineContext = {
    profile,
    strategies,
    store: working,
    summarizer: options.summarizer,
    summarizerTimeoutMs: timeout,
    summaryGate: options.summaryGate ?? 'default',
    knowledgeBase,
    factExtractor:
      options.factExtractor === null
        ? undefined
        : (options.factExtractor ?? createRuleFactExtractor()),
    counter,
    events,
    compressionRatio: ratio,
    maxSummaryTokens,
    now: options.now ?? Date.now,
    newId: () => crypto.randomUUID(),
  };
  // Without long-term strategies a session grows without bound; a plain token window (no
  // conditions, which could hide tokens) needs only the tail, so only the tail is loaded.
  const windows = profile.shortTerm;
  const tailTokens =
    profile.longTerm.length === 0 &&
    persistence !== 'EPHEMERAL' &&
    windows.length > 0 &&
    windows.every((w) => w.conditions.length === 0)
      ? Math.max(0, ...windows.map((w) => w.config.memory_max_tokens))
      : undefined;
  // Session calls first load the counter's encoding (nothing loads it at import).
  const afterCounterReady = readyGate(counter);
  /** Cached sessions, least recently used first (a Map keeps insertion order). */
  const sessions = new Map<string, CachedSession>();
  const cached = (sessionId: string): CachedSession => {
    let entry = sessions.get(sessionId);
    if (entry !== undefined) {
      sessions.delete(sessionId);
      sessions.set(sessionId, entry);
      return entry;
    }
    const state = new SessionState(sessionId, tailTokens, countings.default, options.model);
    const scoped = sessionCounting(ctx, state);
    const session = afterCounterReady(
      createSession(scoped.ctx, state, scoped.shortTerm, {
        countings,
        compared: (prompt, reported) => {
          accuracy.record(prompt.model, prompt.encoding, prompt.tokens, reported);
          events.emit('tokens:compared', {
            sessionId,
            ...(prompt.model === undefined ? {} : { model: prompt.model }),
            encoding: prompt.encoding,
            counted: prompt.tokens,
            reported,
          });
        },
      }),
    );
    entry = { state, session };
    sessions.set(sessionId, entry);
    if (sessions.size > maxCachedSessions) {
      for (const [id, old] of sessions) {
        if (sessions.size <= maxCachedSessions || id === sessionId) break;
        if (old.state.busy === undefined) sessions.delete(id);
      }
    }
    return entry;
  };

  /**
   * The cached session, claimed for `userId` when the handle names one and it has no user yet.
   * Another user than the one the store has it bound to (or a claim it will bind) is refused at
   * once; before the store was read, the call is refused once it has been (see `forwarding`).
   */
  const cachedFor = (sessionId: string, userId: string | undefined): CachedSession => {
    const entry = cached(sessionId);
    if (userId !== undefined) {
      const known = entry.state.userId;
      if (known === undefined) entry.state.userId = userId;
      else if (known !== userId && entry.state.userChecked) throw otherUser(sessionId);
    }
    return entry;
  };
  const collections = [
    ...new Set(
      profile.longTerm.flatMap((e) =>
        isSummarizerConfig(e.config) && e.config.knowledge_base !== null
          ? [e.config.knowledge_base.collection_id]
          : [],
      ),
    ),
  ];
  const forgetUser = async (userId: unknown): Promise<ForgetUserReport> => {
    assertValidUserId(userId);
    // The user's cached sessions finish their background work, then leave the cache.
    for (;;) {
      const mine = [...sessions].filter(([, e]) => e.state.userId === userId);
      const running = mine.map(([, e]) => e.state.busy).filter((p) => p !== undefined);
      if (running.length === 0) {
        for (const [id] of mine) sessions.delete(id);
        break;
      }
      await Promise.allSettled(running);
    }
    const stores = working === userStore ? [working] : [working, userStore];
    return forgetUserData(userId, stores, knowledgeBase, collections);
  };

  return {
    profile,
    store: userStore,
    knowledgeBase,
    tokenCounter: counter,
    tokenAccuracy: () => accuracy.report(),
    session(sessionId, sessionOptions) {
      assertValidSessionId(sessionId);
      const userId = sessionUser(sessionOptions);
      cachedFor(sessionId, userId);
      // The handle finds the session's state at each call: after an eviction, a new one.
      return forwarding(sessionId, userId, () => cachedFor(sessionId, userId), working);
    },
    user(userId) {
      assertValidUserId(userId);
      return createUserMemory(
        { store: working, events, now: ctx.now, newId: ctx.newId, forgetUser },
        userId,
      );
    },
    forgetUser,
    on: (event, listener) => events.on(event, listener),
    setSummarizer(summarizer) {
      if (summarizer !== undefined) checkParts({ summarizer });
      ctx.summarizer = summarizer;
    },
    async idle() {
      for (;;) {
        const running = [...sessions.values()]
          .map((s) => s.state.busy)
          .filter((p) => p !== undefined);
        if (running.length === 0) return;
        await Promise.allSettled(running);
      }
    },
  };
}
