import type { MemConditionError } from '../errors/errors.ts';
import type { PayloadEvents, TypedEmitter } from '../events/typed-emitter.ts';
import type { SummaryRecord } from '../store/store-spec.ts';
import type { FallbackReason } from '../summarize/run-summarizer.ts';

export type { FallbackReason };

/** Everything the engine reports. Listeners never block or break the engine. */
export interface MemoryEngineEvents {
  appended: { sessionId: string; messageIds: string[]; version: number };
  /** A long-term strategy's trigger fired. */
  triggered: {
    sessionId: string;
    /** The strategy's `long_term_memory_id`: `summarizer`, `neuralyzer` or one you registered. */
    strategy: string;
    /** Position of the strategy in the profile's `long_term_memory_strategy`. */
    strategyIndex: number;
    reasons: string[];
  };
  compacted: {
    sessionId: string;
    record: SummaryRecord;
    source: 'summarizer' | 'fallback';
    durationMs: number;
  };
  /**
   * The extractive fallback produced the summary. History was not touched by the failure.
   * `reason` is the code: `none-configured` (no summarizer), `timeout`, `aborted`, `error` (the
   * summarizer threw) or `unusable` (its output failed `checkSummary`: empty, an error text or
   * refusal, a credential, not about the conversation, too long). `detail` says what happened in
   * a sentence; `error` is the `MemSummarizerError` (with the thrown error as `cause`), absent
   * for `none-configured`.
   */
  'summarizer:fallback': {
    sessionId: string;
    reason: FallbackReason;
    detail: string;
    error?: unknown;
  };
  /** Token usage of one summarizer model call (or of a pass, for summarizers that report per pass). */
  usage: { sessionId: string; inputTokens: number; outputTokens: number; model?: string };
  erased: { sessionId: string; strategyIndex: number; erasedCount: number; throughSeq: number };
  /** Another writer rewrote the session first; the compaction was re-planned. */
  'compaction:conflict': { sessionId: string; attempt: number };
  /** A long-term run failed (store or knowledge-base error); history is unchanged. */
  'compaction:error': { sessionId: string; error: unknown };
  /**
   * FLUSH persistence replaced the stored session by the current conversation: the archived
   * originals and summary records it dropped (emitted only when it dropped something).
   */
  flushed: {
    sessionId: string;
    droppedMessages: number;
    droppedSummaries: number;
    version: number;
    epoch: number;
  };
  /** Another writer rewrote the session before a flush; it is read again and flushed again. */
  'flush:conflict': { sessionId: string; attempt: number };
  /**
   * A flush failed (a store error, or still conflicting after 3 reads): the stored session keeps
   * its archives and records until the next inference flushes it. Nothing is lost.
   */
  'flush:error': { sessionId: string; error: unknown };
  'knowledge:indexed': { sessionId: string; collectionId: string; chunks: number };
  /**
   * Indexing finished turns or searching the knowledge base failed. History is unchanged: the
   * turns are indexed again with the next append, or when a compaction archives them; a failed
   * search leaves the context without retrieved knowledge.
   */
  'knowledge:error': { sessionId: string; operation: 'index' | 'search'; error: unknown };
  cleared: { sessionId: string };
  /**
   * A user's facts changed: ids of the facts added, rewritten and removed. `sessionId` names the
   * session whose interaction the fact extractor read; absent for `engine.user(id)` calls.
   */
  'facts:updated': {
    userId: string;
    sessionId?: string;
    added: string[];
    updated: string[];
    deleted: string[];
  };
  /**
   * Fact extraction after an interaction of `sessionId` failed: the extractor threw, missed the
   * deadline (`summarizerTimeout`) or returned something else than valid operations (a
   * `MemValidationError` naming it and saying what `extract()` must return), or the facts could
   * not be written (a store error, or still conflicting after 8 re-reads). The user's facts
   * are unchanged; history is never touched.
   */
  'facts:error': { userId: string; sessionId: string; extractor: string; error: unknown };
  /**
   * An append reported the provider's `inputTokens` for the prompt of the session's last
   * `context()`: `counted` is mem's count of that prompt, with the counting named by `encoding`
   * (totals per model: `engine.tokenAccuracy()`).
   */
  'tokens:compared': {
    sessionId: string;
    model?: string;
    encoding: string;
    counted: number;
    reported: number;
  };
  /**
   * A condition failed on a message (a missing metadata key, a division by zero, input over the
   * work budget) and counted as not holding: the message was hidden from the prompt (`window`) or
   * left out of a trigger count (`trigger`). Reported once per condition and message.
   * `sessionId` is absent for the window: short-term strategies are shared by every session.
   */
  'condition:error': { sessionId?: string; use: 'window' | 'trigger'; error: MemConditionError };
}

export type MemoryEngineEvent = keyof MemoryEngineEvents;

/** The engine's emitter: each listener takes one payload and never breaks the engine. */
export type EngineEvents = TypedEmitter<PayloadEvents<MemoryEngineEvents>>;

/**
 * Emits `condition:error` once per condition and message: a trigger re-checks the open
 * interaction on every append, and would otherwise report the same failure again and again.
 */
export function conditionErrorReporter(
  events: EngineEvents,
  sessionId: string | undefined,
  use: 'window' | 'trigger',
): (error: MemConditionError) => void {
  const seen = new Set<string>();
  return (error) => {
    const key = `${error.path}\u0000${error.messageId ?? ''}`;
    if (seen.has(key)) return;
    if (seen.size >= 4096) seen.clear();
    seen.add(key);
    events.emit('condition:error', {
      ...(sessionId === undefined ? {} : { sessionId }),
      use,
      error,
    });
  };
}
