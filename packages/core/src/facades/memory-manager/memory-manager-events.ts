import type { FallbackReason } from '../../engine/engine-events.ts';
import type { CompressionResult, MemoryEntry } from './memory-entry.ts';

/** Events of a MemoryManager and their listener arguments. */
export interface MemoryManagerEvents {
  'entry:added': [sessionId: string, entry: MemoryEntry];
  /** A summary replaced older entries (manually or automatically). */
  compressed: [sessionId: string, result: CompressionResult];
  'session:cleared': [sessionId: string];
  /** A compression failed (e.g. a store error); the session is unchanged. */
  'compress:failed': [sessionId: string, error: unknown];
  /**
   * The extractive summary was used instead of the summarize callback: `none-configured` (no
   * callback set), `timeout`, `error`, `unusable` or `aborted`. Nothing was lost.
   */
  'summarizer:fallback': [sessionId: string, reason: FallbackReason, error?: unknown];
}

export type MemoryManagerEvent = keyof MemoryManagerEvents;
export type MemoryManagerListener<E extends MemoryManagerEvent> = (
  ...args: MemoryManagerEvents[E]
) => void;
