import {
  createMemoryEngine,
  type ForgetUserReport,
  type MemoryEngine,
} from '../../engine/memory-engine.ts';
import type { MemorySession, MessageInput } from '../../engine/memory-session.ts';
import { MemValidationError } from '../../errors/errors.ts';
import { TypedEmitter } from '../../events/typed-emitter.ts';
import { createInMemoryStore } from '../../store/in-memory-store.ts';
import type { Store } from '../../store/store-spec.ts';
import { assertValidSessionId } from '../../store/validate-ids.ts';
import {
  type AddContextOptions,
  type AddEntryOptions,
  type AddToolResultOptions,
  contextInput,
  messageInput,
  openCallId,
  toolCallInput,
  toolResultInput,
} from './entry-input.ts';
import { toEntry } from './entry-mapping.ts';
import { KeyedQueue } from './keyed-queue.ts';
import { formatContext } from './llm-context.ts';
import type {
  CompressionResult,
  MemoryEntry,
  MemorySessionState,
  MemorySessionStateInput,
  MemoryStats,
} from './memory-entry.ts';
import {
  applyConfigUpdate,
  type MemoryConfig,
  type MemoryManagerOptions,
  parseMemoryManagerOptions,
  type SummarizeCallback,
} from './memory-manager-config.ts';
import type {
  MemoryManagerEvent,
  MemoryManagerEvents,
  MemoryManagerListener,
} from './memory-manager-events.ts';
import { SessionCompressor } from './session-compressor.ts';
import { stateOfSnapshot, statsOf } from './session-export.ts';
import { snapshotOfState } from './session-import.ts';
import { callbackSummarizer } from './summarize-callback.ts';
import { type UserOf, userSession } from './user-session.ts';

/**
 * The engine profile behind the facade: the facade decides when to compress (its own triggers),
 * the engine summarizes on request (one summarize call per compression); the context keeps every
 * active entry, made into a valid prompt (orphan tool results left out).
 */
const ENGINE_PROFILE = {
  short_term_memory_strategy: [
    { memory_strategy_id: 'max_tokens', memory_max_tokens: Number.MAX_SAFE_INTEGER },
  ],
  long_term_memory_strategy: [
    {
      long_term_memory_id: 'summarizer',
      interaction_threshold_qty: 0,
      interaction_threshold_tokens: 0,
      cod_max_loops: 1,
    },
  ],
  persistence_strategy: 'INCREMENTAL',
};

/**
 * Conversation memory for many sessions (the Memory Manager): tracks every entry, compresses old
 * ones into summaries when a session grows past its budget, and builds the context for the next
 * LLM call. A layer over one memory engine; summarization and storage are the engine's and the
 * store's. Adds never wait for a summarization; the compressions of one session run one at a
 * time.
 *
 * Every method that reads or writes a session returns a Promise, because stores are async: where
 * the reference document writes `memory.getStats(id)`, `exportSession`, `importSession`,
 * `clearSession`, `getContextForLLM` or `getActiveEntries` synchronously, await them here.
 *
 * ```ts
 * const memory = new MemoryManager({ maxTokens: 100_000 });
 * await memory.addUserMessage(sessionId, 'Hello, how are you?');
 * const stats = await memory.getStats(sessionId);
 * ```
 */
export class MemoryManager {
  /** Where the sessions live. */
  readonly store: Store;
  private config: MemoryConfig;
  private readonly engine: MemoryEngine;
  private readonly now: () => number;
  private readonly events = new TypedEmitter<MemoryManagerEvents>();
  private readonly adds = new KeyedQueue();
  private readonly compressor: SessionCompressor;
  private readonly userOf: UserOf | undefined;

  /** @throws MemConfigError listing every bad option. */
  constructor(options: MemoryManagerOptions = {}) {
    const { config, options: o } = parseMemoryManagerOptions(options);
    this.config = config;
    this.now = o.now ?? Date.now;
    this.userOf = o.userOf;
    this.engine = createMemoryEngine({
      profile: ENGINE_PROFILE,
      store: o.store ?? createInMemoryStore(o.now === undefined ? {} : { now: o.now }),
      ...(o.summarizeCallback === undefined
        ? {}
        : { summarizer: callbackSummarizer(o.summarizeCallback) }),
      ...(o.summarizerTimeout === undefined ? {} : { summarizerTimeout: o.summarizerTimeout }),
      ...(o.summaryGate === undefined ? {} : { summaryGate: o.summaryGate }),
      ...(o.tokenCounter === undefined ? {} : { tokenCounter: o.tokenCounter }),
      ...(o.now === undefined ? {} : { now: o.now }),
    });
    this.store = this.engine.store;
    this.compressor = new SessionCompressor(this.engine, () => this.config, this.events);
    this.engine.on('summarizer:fallback', (e) =>
      this.events.emit('summarizer:fallback', e.sessionId, e.reason, e.error),
    );
  }

  addUserMessage(
    sessionId: string,
    content: string,
    options?: AddEntryOptions,
  ): Promise<MemoryEntry> {
    return this.add(sessionId, () => messageInput('user', content, options));
  }

  addAssistantMessage(
    sessionId: string,
    content: string,
    options?: AddEntryOptions,
  ): Promise<MemoryEntry> {
    return this.add(sessionId, () => messageInput('assistant', content, options));
  }

  /** Records a tool invocation; the call id is generated, `args` stored as JSON text. */
  addToolCall(
    sessionId: string,
    toolName: string,
    args: unknown,
    options?: AddEntryOptions,
  ): Promise<MemoryEntry> {
    return this.add(sessionId, () => toolCallInput(toolName, args, options));
  }

  /** Records a tool's output, answering the newest unanswered call of `toolName`. */
  addToolResult(
    sessionId: string,
    toolName: string,
    result: string,
    options?: AddToolResultOptions,
  ): Promise<MemoryEntry> {
    return this.add(sessionId, async () => {
      const active = await this.session(sessionId).messages();
      return toolResultInput(toolName, result, openCallId(active, toolName), options);
    });
  }

  /** Adds context (a file, say); `source` names where it came from. */
  addContext(
    sessionId: string,
    content: string,
    source?: string,
    options?: AddContextOptions,
  ): Promise<MemoryEntry> {
    return this.add(sessionId, () => contextInput(content, source, options));
  }

  /**
   * Compresses now: summarizes the entries older than the recent window, if at least
   * `minEntriesToCompress` uncompressed ones are eligible. Resolves null when there was nothing
   * to do. A failure rejects (and emits `compress:failed`); the session is then unchanged.
   */
  async compress(sessionId: string): Promise<CompressionResult | null> {
    assertValidSessionId(sessionId);
    return this.compressor.compress(sessionId);
  }

  /** Summarizes with `callback` from the next compression on (`null`: the extractive summary). */
  setSummarizeCallback(callback: SummarizeCallback | null): void {
    if (callback !== null && typeof callback !== 'function') {
      throw new MemValidationError(
        'callback',
        '[mem/core] setSummarizeCallback expects a function (prompt) => Promise<string>, or null.',
      );
    }
    this.engine.setSummarizer(callback === null ? undefined : callbackSummarizer(callback));
  }

  /** Changes some config fields. @throws MemConfigError listing every bad field (nothing changes then). */
  updateConfig(update: Partial<MemoryConfig>): MemoryConfig {
    this.config = applyConfigUpdate(this.config, update);
    return this.getConfig();
  }

  getConfig(): MemoryConfig {
    return { ...this.config };
  }

  /** Every entry (compressed ones with their `summaryId`), every summary, and the token total. */
  async exportSession(sessionId: string): Promise<MemorySessionState> {
    assertValidSessionId(sessionId);
    return stateOfSnapshot(sessionId, await this.store.export(sessionId));
  }

  /**
   * Replaces the session `state.sessionId` with `state` (what `exportSession` returned, here or
   * from another manager and store; JSON-parsed is fine). Exporting it afterwards gives `state`
   * back. Do not add to that session while it is being imported.
   * @throws MemValidationError naming every bad field.
   */
  async importSession(state: MemorySessionStateInput): Promise<void> {
    const snapshot = snapshotOfState(state, this.now());
    const id = snapshot.sessionId;
    await this.compressor.exclusive(id, () =>
      this.adds.run(id, async () => {
        await this.session(id).clear();
        await this.store.import(snapshot);
      }),
    );
  }

  /** Removes the session and everything it holds. Resolves false if it did not exist. */
  async clearSession(sessionId: string): Promise<boolean> {
    const session = this.session(sessionId);
    return this.compressor.exclusive(sessionId, () =>
      this.adds.run(sessionId, async () => {
        const existed = await session.clear();
        this.events.emit('session:cleared', sessionId);
        return existed;
      }),
    );
  }

  /** The summaries and the active entries as text for an LLM prompt. */
  async getContextForLLM(sessionId: string): Promise<string> {
    return formatContext((await this.session(sessionId).context()).messages);
  }

  /** The entries not compressed, summaries included, oldest first. */
  async getActiveEntries(sessionId: string): Promise<MemoryEntry[]> {
    return (await this.session(sessionId).messages()).map((m) => toEntry(m, undefined));
  }

  async getStats(sessionId: string): Promise<MemoryStats> {
    return statsOf(await this.exportSession(sessionId));
  }

  /**
   * Waits for the compressions queued or running (of one session, or all), and for the engine's
   * background work (learning a user's facts, see `userOf`).
   */
  async idle(sessionId?: string): Promise<void> {
    await this.compressor.idle(sessionId);
    await (sessionId === undefined ? this.engine.idle() : this.engine.session(sessionId).idle());
  }

  /** Adds a listener; returns a function that removes it. */
  on<E extends MemoryManagerEvent>(event: E, listener: MemoryManagerListener<E>): () => void {
    return this.events.on(event, listener);
  }

  off<E extends MemoryManagerEvent>(event: E, listener: MemoryManagerListener<E>): void {
    this.events.off(event, listener);
  }

  /**
   * Erases everything of the user (`userOf`): every session of theirs with its entries and
   * summaries, and their facts. Waits for the compressions in flight first. Idempotent.
   */
  async forgetUser(userId: string): Promise<ForgetUserReport> {
    await this.idle();
    return this.engine.forgetUser(userId);
  }

  /** The engine session of `sessionId`, for its user (`userOf`) when it has one. */
  private session(sessionId: string): MemorySession {
    return userSession(this.engine, this.userOf, sessionId);
  }

  private async add(
    sessionId: string,
    build: () => MessageInput | Promise<MessageInput>,
  ): Promise<MemoryEntry> {
    const session = this.session(sessionId);
    const entry = await this.adds.run(sessionId, async () => {
      const [stored] = await session.append(await build());
      return toEntry(stored!, undefined);
    });
    this.events.emit('entry:added', sessionId, entry);
    this.compressor.afterAdd(sessionId);
    return entry;
  }
}
