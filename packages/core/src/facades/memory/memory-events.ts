import type { FallbackReason } from '../../engine/engine-events.ts';
import type { SummaryRecord } from '../../store/store-spec.ts';

/** Why the view of a `Memory` changed. */
export type MemoryChangeReason = 'added' | 'compressed' | 'erased' | 'cleared';

/** What a `Memory` reports, relayed from its engine. */
export interface MemoryEvents {
  /** Older turns were replaced by a summary (the originals are archived in the store). */
  compressed: { record: SummaryRecord; source: 'summarizer' | 'fallback'; durationMs: number };
  /** The summarizer timed out, failed or returned unusable output: the extractive summary was used. */
  fallback: { reason: FallbackReason; error?: unknown };
  /** The `maxTurns` backstop fired for the first time on this `Memory` (reported once). */
  warning: { code: 'MEM_MAX_TURNS'; message: string; maxTurns: number; erasedCount: number };
  /** What `messages()` and `text()` return changed: a turn was added, compressed, erased or cleared. */
  change: { reason: MemoryChangeReason };
  /** A background compression failed (e.g. a store error); history is unchanged. */
  error: { error: unknown };
}

export type MemoryEvent = keyof MemoryEvents;
export type MemoryListener<E extends MemoryEvent> = (payload: MemoryEvents[E]) => void;
