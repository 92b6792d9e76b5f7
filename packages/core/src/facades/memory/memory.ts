import { createMemoryEngine, type MemoryEngine } from '../../engine/memory-engine.ts';
import type { MemorySession } from '../../engine/memory-session.ts';
import { type PayloadEvents, TypedEmitter } from '../../events/typed-emitter.ts';
import type { Message } from '../../model/message.ts';
import { runsChainOfDensity } from '../../summarize/summarizer.ts';
import type { MemoryEvent, MemoryEvents, MemoryListener } from './memory-events.ts';
import { type MemoryOptions, parseMemoryOptions } from './memory-options.ts';
import { renderMemoryText } from './memory-text.ts';
import { createMemoryView, type MemoryView } from './memory-view.ts';
import {
  erasuresAreBackstop,
  type MemoryStrategy,
  strategyProfile,
  summaryTokenBudget,
} from './strategy-profile.ts';
import { type MemoryAddOptions, turnMessages } from './turn-messages.ts';

/**
 * One conversation's memory — "what the model should see in the next prompt" — bounded by a
 * strategy (`auto`, `sliding`, `summary`, `none`; see `strategyProfile`) and by the `maxTurns`
 * backstop. A thin layer over the memory engine: one engine, one session.
 *
 * Compression runs in the background, outside any lock: `add()` never waits for a summarizer,
 * and turns added while one runs are kept. A read during a compression may show the
 * pre-compression view; `idle()` waits until compression has settled.
 *
 * Durable only as far as its store is: the default in-memory store is lost with the process.
 * Pass a durable store and a fixed `sessionId` to reopen the conversation later, and a `userId`
 * to make it the user's: the user's facts then join `messages()`.
 */
export class Memory {
  readonly sessionId: string;
  /** The user the conversation belongs to (`undefined`: none). */
  readonly userId: string | undefined;
  readonly strategy: MemoryStrategy;
  readonly maxTurns: number;
  readonly #engine: MemoryEngine;
  readonly #session: MemorySession;
  readonly #events = new TypedEmitter<PayloadEvents<MemoryEvents>>();
  /** `sliding` and `none` only erase (a store write, never an LLM call): `add()` waits for it. */
  readonly #settleOnAdd: boolean;
  #warned = false;
  #view: MemoryView | undefined;

  /** @throws MemConfigError listing every invalid option. */
  constructor(options: MemoryOptions = {}) {
    const o = parseMemoryOptions(options);
    this.sessionId = o.sessionId;
    this.userId = o.userId;
    this.strategy = o.strategy;
    this.maxTurns = o.maxTurns;
    this.#settleOnAdd = o.strategy === 'sliding' || o.strategy === 'none';
    const chainOfDensity = o.summarizer !== undefined && runsChainOfDensity(o.summarizer);
    const maxSummaryTokens = summaryTokenBudget(o.strategy, o.maxTokens);
    this.#engine = createMemoryEngine({
      profile: strategyProfile(o.strategy, {
        maxTokens: o.maxTokens,
        maxTurns: o.maxTurns,
        chainOfDensity,
      }),
      summarizerTimeout: o.summarizerTimeout,
      ...(o.store === undefined ? {} : { store: o.store }),
      ...(o.summarizer === undefined ? {} : { summarizer: o.summarizer }),
      ...(o.tokenCounter === undefined ? {} : { tokenCounter: o.tokenCounter }),
      ...(maxSummaryTokens === undefined ? {} : { maxSummaryTokens }),
    });
    this.#session = this.#engine.session(
      this.sessionId,
      o.userId === undefined ? {} : { userId: o.userId },
    );
    this.#relayEngineEvents(erasuresAreBackstop(o.strategy, o.maxTurns));
  }

  /**
   * Appends one turn (the user message and the assistant reply) and resolves once it is stored.
   * With `summary` and `auto` it never waits for a summarizer: compression runs in the
   * background. With `sliding` and `none` it also waits for the erasure the turn triggered (a
   * store write), so `messages()` right after never shows more than the window.
   *
   * `tokens` (> 0): the turn's size as the provider reported it, recorded instead of counting —
   * the user message keeps its counted size (capped at `tokens`), the reply gets the rest.
   * @throws MemValidationError (as a rejection) for a non-string message or a bad `tokens`.
   */
  async add(user: string, assistant: string, options?: MemoryAddOptions): Promise<void> {
    await this.#engine.tokenCounter.ready?.();
    const turn = turnMessages(user, assistant, options, this.#engine.tokenCounter);
    await this.#session.append(turn);
    if (this.#settleOnAdd) await this.#session.idle();
  }

  /** The messages for the next LLM call: the summary (if any), then the turns the strategy keeps. */
  async messages(): Promise<Message[]> {
    return (await this.#session.context()).messages;
  }

  /**
   * The current view as plain text, one labelled message per line (`User: ...`,
   * `Assistant: ...`, `Summary of earlier turns: ...`). Re-read on every call: copy the string
   * if you need a stable snapshot.
   */
  async text(): Promise<string> {
    return renderMemoryText(await this.messages());
  }

  /**
   * Wipes this conversation: turns, summaries and archived originals, in the store too. Waits
   * for a compression in flight first (bounded by `summarizerTimeout`).
   */
  async clear(): Promise<void> {
    await this.#session.clear();
  }

  /** A live read-only view (`messages`, `text`, `on('change')`) to hand to other agents. */
  view(): MemoryView {
    this.#view ??= createMemoryView(this);
    return this.#view;
  }

  /** Subscribes to an event; returns a function that unsubscribes. */
  on<E extends MemoryEvent>(event: E, listener: MemoryListener<E>): () => void {
    return this.#events.on(event, listener);
  }

  /** Resolves once background compression has settled (for tests and shutdown). */
  idle(): Promise<void> {
    return this.#session.idle();
  }

  #relayEngineEvents(backstopErasures: boolean): void {
    const engine = this.#engine;
    const mine = (e: { sessionId: string }) => e.sessionId === this.sessionId;
    engine.on('appended', (e) => {
      if (mine(e)) this.#events.emit('change', { reason: 'added' });
    });
    engine.on('compacted', (e) => {
      if (!mine(e)) return;
      this.#events.emit('compressed', {
        record: e.record,
        source: e.source,
        durationMs: e.durationMs,
      });
      this.#events.emit('change', { reason: 'compressed' });
    });
    engine.on('summarizer:fallback', (e) => {
      if (!mine(e)) return;
      this.#events.emit('fallback', {
        reason: e.reason,
        ...(e.error === undefined ? {} : { error: e.error }),
      });
    });
    engine.on('compaction:error', (e) => {
      if (mine(e)) this.#events.emit('error', { error: e.error });
    });
    engine.on('cleared', (e) => {
      if (mine(e)) this.#events.emit('change', { reason: 'cleared' });
    });
    engine.on('erased', (e) => {
      if (!mine(e)) return;
      if (backstopErasures) this.#warnOnce(e.erasedCount);
      this.#events.emit('change', { reason: 'erased' });
    });
  }

  /** The backstop fired: one process warning and one `warning` event per Memory, ever. */
  #warnOnce(erasedCount: number): void {
    if (this.#warned) return;
    this.#warned = true;
    const message =
      `[mem/core] Memory maxTurns backstop fired: more than ${this.maxTurns} turns were retained, ` +
      `so the oldest were erased (${erasedCount} messages). maxTurns is a hard backstop, not the ` +
      `compression knob: switch from strategy 'none' to 'auto' to summarize older turns instead, ` +
      'or raise maxTurns. This warning is shown once per Memory.';
    globalThis.process?.emitWarning?.(message, { type: 'MemWarning', code: 'MEM_MAX_TURNS' });
    this.#events.emit('warning', {
      code: 'MEM_MAX_TURNS',
      message,
      maxTurns: this.maxTurns,
      erasedCount,
    });
  }
}
