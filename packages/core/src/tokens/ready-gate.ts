import type { TokenCounter } from './token-counter.ts';

/** Wraps an object's methods, which all return promises, so they first await `ready()`. */
export type ReadyGate = <T extends object>(target: T) => T;

/**
 * A gate on `counter.ready()` for an async API that counts synchronously inside (the engine's
 * session handle): each of its methods awaits `ready()` first, until it has resolved once; from
 * then on calls go straight through, with no extra await. All methods wait, not only those that
 * count, so calls made before `ready()` resolved still start in the order they were made. A
 * failed `ready()` rejects the call and is tried again by the next one. A counter without
 * `ready()` opens the gate at once.
 */
export function readyGate(counter: TokenCounter): ReadyGate {
  let open = counter.ready === undefined;
  let pending: Promise<void> | undefined;
  const ready = (): Promise<void> => {
    pending ??= (async () => {
      try {
        await counter.ready?.();
        open = true;
      } finally {
        pending = undefined;
      }
    })();
    return pending;
  };
  return (target) => {
    if (open) return target;
    const gated: Record<string, unknown> = { ...(target as Record<string, unknown>) };
    for (const [name, value] of Object.entries(target)) {
      if (typeof value !== 'function') continue;
      const method = value as (...args: unknown[]) => Promise<unknown>;
      gated[name] = (...args: unknown[]) =>
        open ? method(...args) : ready().then(() => method(...args));
    }
    return gated as typeof target;
  };
}
