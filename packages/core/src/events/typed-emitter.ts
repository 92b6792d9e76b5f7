/** Listener arguments per event name: `{ added: [id: string, entry: Entry] }`. */
export type EventMap<Events> = { [E in keyof Events]: unknown[] };

/** An event map for listeners that take one payload: `{ added: { id: string } }`. */
export type PayloadEvents<Payloads> = { [E in keyof Payloads]: [payload: Payloads[E]] };

export type EventListener<Events extends EventMap<Events>, E extends keyof Events> = (
  ...args: Events[E]
) => void;

/**
 * A tiny typed event emitter. Listeners run in the order they were added; adding the same
 * function twice keeps one registration. An emit calls the listeners registered when it starts
 * (one added or removed by a listener takes effect from the next emit). A throwing listener is
 * isolated: the emitter's owner and the other listeners carry on.
 */
export class TypedEmitter<Events extends EventMap<Events>> {
  readonly #listeners = new Map<keyof Events, Set<EventListener<Events, never>>>();

  /** Adds a listener; returns a function that removes it. */
  on<E extends keyof Events>(event: E, listener: EventListener<Events, E>): () => void {
    let set = this.#listeners.get(event);
    if (set === undefined) {
      set = new Set();
      this.#listeners.set(event, set);
    }
    set.add(listener as EventListener<Events, never>);
    return () => this.off(event, listener);
  }

  off<E extends keyof Events>(event: E, listener: EventListener<Events, E>): void {
    this.#listeners.get(event)?.delete(listener as EventListener<Events, never>);
  }

  emit<E extends keyof Events>(event: E, ...args: Events[E]): void {
    const set = this.#listeners.get(event);
    if (set === undefined) return;
    for (const listener of [...set]) {
      try {
        (listener as EventListener<Events, E>)(...args);
      } catch {
        // A listener's failure must never change what the emitter's owner does.
      }
    }
  }
}
