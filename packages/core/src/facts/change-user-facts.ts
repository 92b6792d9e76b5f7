import { MemError } from '../errors/mem-error.ts';
import type { Store, UserFact } from '../store/store-spec.ts';
import type { AppliedFacts } from './fact-operations.ts';

/** Re-reads after a lost compare-and-swap before the last conflict is thrown. */
export const MAX_FACT_WRITE_ATTEMPTS = 8;

/**
 * Changes a user's facts with compare-and-swap: reads them, applies `change` (a pure function of
 * the facts read), writes the result at the version read. When another writer won in between
 * (`MemStoreConflictError`), reads again and applies the same change to what it wrote, up to
 * `MAX_FACT_WRITE_ATTEMPTS` times; then the last conflict is thrown. Nothing is written when the
 * change changes nothing.
 */
export async function changeUserFacts(
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
    }
  }
}
