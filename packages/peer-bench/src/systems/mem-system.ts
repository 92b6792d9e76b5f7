import { statSync } from 'node:fs';
import { join } from 'node:path';
import { createMemoryEngine, type Message } from '@mem/core';
import { createSqliteStore } from '@mem/store-sqlite';
import { type OpenSystemOptions, type PeerSystem, sqliteBytes } from '../peer-system.ts';
import { BUDGET_TOKENS } from '../workload.ts';

const SESSION = 'bench';
const fileSize = (p: string) => statSync(p, { throwIfNoEntry: false })?.size ?? 0;

/**
 * mem: `createSqliteStore` (better-sqlite3, WAL, synchronous=NORMAL: the defaults) under
 * `createMemoryEngine` with a `max_tokens` 4,000 profile. Pre-fill: `store.append` of counted
 * messages, 250 interactions per call. Turn: `session.append` of the 4 new (uncounted) messages —
 * counting them is part of the turn — then `session.context()`.
 */
export function openMemSystem({ dir, workload }: OpenSystemOptions): PeerSystem {
  const path = join(dir, 'mem.db');
  const store = createSqliteStore({ path });
  const engine = createMemoryEngine({
    store,
    tokenCounter: workload.counter,
    profile: {
      short_term_memory_strategy: [
        { memory_strategy_id: 'max_tokens', memory_max_tokens: BUDGET_TOKENS },
      ],
    },
  });
  const session = engine.session(SESSION);
  return {
    name: 'mem',
    async prefill(interactions) {
      const batch = 250;
      for (let i = 0; i < interactions; i += batch) {
        const messages = [];
        for (let t = i; t < Math.min(interactions, i + batch); t++) {
          messages.push(...workload.turnAt(t));
        }
        await store.append(SESSION, messages, { idempotencyKey: `prefill-${i}` });
      }
    },
    async warm() {
      await session.context();
    },
    async turn(i) {
      const messages: Message[] = workload.turnAt(i).map(({ tokenCount: _, ...m }) => m);
      await session.append(messages);
      const context = await session.context();
      return { ids: context.messages.map((m) => m.id), tokens: context.tokenCount };
    },
    bytesOnDisk: () => sqliteBytes(path, fileSize),
    close: async () => {
      await store.close();
    },
  };
}
