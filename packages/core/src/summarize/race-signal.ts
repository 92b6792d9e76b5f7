/**
 * Runs `work` and settles with it, or rejects with `signal.reason` as soon as `signal` aborts —
 * whichever comes first. Work that ignores the signal and never settles cannot hold the caller
 * past the deadline; if it rejects later, the rejection is absorbed (never unhandled).
 */
export function raceSignal<T>(work: () => Promise<T> | T, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  let pending: Promise<T>;
  try {
    pending = Promise.resolve(work());
  } catch (error) {
    return Promise.reject(error);
  }
  pending.catch(() => {});
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    pending.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
