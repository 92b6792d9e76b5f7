import { MemError } from '../errors/mem-error.ts';
import type { Store, UserFact } from '../store/store-spec.ts';
import type { AppliedFacts } from './fact-operations.ts';

/** Re-reads after a lost compare-and-swap before the last conflict is thrown. */
export const MAX_FACT_WRITE_ATTEMPTS = 8;

/** Changes in flight per store and user: one process writes a user's facts one change at a time. */
const queues = new WeakMap<Store, Map<string, Promise<void>>>();

/**
 * Changes a user's facts with compare-and-swap: reads them, applies `change` (a pure function of
 * the facts read), writes the result at the version read. When another writer won in between
 * (`MemStoreConflictError`), reads again and applies the same change to what it wrote, up to
 * `MAX_FACT_WRITE_ATTEMPTS` times; then the last conflict is thrown. Nothing is written when the
 * change changes nothing. Changes through one store object run one at a time per user, so only
 * other processes (or store objects) can conflict.
 */
export function changeUserFacts(
  store: Store,
  userId: string,
  change: (facts: readonly UserFact[]) => AppliedFacts,
): Promise<AppliedFacts> {
  let byUser = queues.get(store);
  if (byUser === undefined) {
    byUser = new Map();
    queues.set(store, byUser);
  }
  const users = byUser;
  const run = (users.get(userId) ?? Promise.resolve()).then(() => casLoop(store, userId, change));
  const tail = run.then(
    () => undefined,
    () => undefined,
  );
  users.set(userId, tail);
  void tail.then(() => {
    if (users.get(userId) === tail) users.delete(userId);
  });
  return run;
}

async function casLoop(
  store: Store,
  userId: string,
  change: (facts: readonly UserFact[]) => AppliedFacts,
): Promise<AppliedFacts> {
  for (let attempt = 1; ; attempt++) {
    const read = await store.userFacts(userId);
    const applied = change(read.facts);
    if (applied.added.length + applied.updated.length + applied.deleted.length === 0) {
      return applied;
    }
    try {
      await store.writeUserFacts(userId, {
        expectedVersion: read.version,
        facts: applied.facts,
      });
      return applied;
    } catch (error) {
      if (!MemError.hasCode(error, 'MEM_STORE_CONFLICT') || attempt >= MAX_FACT_WRITE_ATTEMPTS) {
        throw error;
      }
      // Writers that lost together should not meet again at once: a short random pause.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 4 * attempt));
    }
  }
}
