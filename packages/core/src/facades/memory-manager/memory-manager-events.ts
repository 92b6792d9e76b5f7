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

/** A typed emitter; a throwing listener never breaks the manager or the other listeners. */
export class MemoryManagerEmitter {
  private readonly listeners = new Map<MemoryManagerEvent, Set<MemoryManagerListener<never>>>();

  on<E extends MemoryManagerEvent>(event: E, listener: MemoryManagerListener<E>): () => void {
    const set = this.listeners.get(event) ?? new Set();
    this.listeners.set(event, set);
    set.add(listener as MemoryManagerListener<never>);
    return () => this.off(event, listener);
  }

  off<E extends MemoryManagerEvent>(event: E, listener: MemoryManagerListener<E>): void {
    this.listeners.get(event)?.delete(listener as MemoryManagerListener<never>);
  }

  emit<E extends MemoryManagerEvent>(event: E, ...args: MemoryManagerEvents[E]): void {
    const set = this.listeners.get(event);
    if (set === undefined) return;
    for (const listener of [...set]) {
      try {
        (listener as MemoryManagerListener<E>)(...args);
      } catch {
        // A listener's failure must never change what the manager does.
      }
    }
  }
}
