import type { Message } from '../../model/message.ts';
import type { MemoryListener } from './memory-events.ts';

/**
 * A live, read-only view of a `Memory` for other agents (a judge, a monitor): it reads what the
 * memory holds now on every call, and can be told of changes, but cannot add or clear.
 */
export interface MemoryView {
  readonly sessionId: string;
  /** What the model should see next, as `Memory.messages()`. */
  messages(): Promise<Message[]>;
  /** The current view as plain text, as `Memory.text()`. */
  text(): Promise<string>;
  /** Called after each change made through the memory; returns a function that unsubscribes. */
  on(event: 'change', listener: MemoryListener<'change'>): () => void;
}

/** Builds a view that forwards to `source`; the object has no other member, so nothing can write. */
export function createMemoryView(source: MemoryView): MemoryView {
  return Object.freeze({
    sessionId: source.sessionId,
    messages: () => source.messages(),
    text: () => source.text(),
    on: (event: 'change', listener: MemoryListener<'change'>) => source.on(event, listener),
  });
}
