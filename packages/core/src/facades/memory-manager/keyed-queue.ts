/** Runs tasks one at a time per key, in call order; tasks of different keys run concurrently. */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<void>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const result = (this.tails.get(key) ?? Promise.resolve()).then(task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Waits until no task of `key` (of any key when omitted) is queued or running. */
  async idle(key?: string): Promise<void> {
    for (;;) {
      const tail = key === undefined ? undefined : this.tails.get(key);
      const pending = key === undefined ? [...this.tails.values()] : tail ? [tail] : [];
      if (pending.length === 0) return;
      await Promise.all(pending);
    }
  }
}
