import { statSync } from 'node:fs';
import { join } from 'node:path';
import { MessageList } from '@mastra/core/agent';
import { MessageHistory } from '@mastra/core/processors';
import { RequestContext } from '@mastra/core/request-context';
import { LibSQLStore } from '@mastra/libsql';
import { Memory } from '@mastra/memory';
import { type OpenSystemOptions, type PeerSystem, sqliteBytes } from '../peer-system.ts';
import { BUDGET_TOKENS, type Workload } from '../workload.ts';
import { MASTRA_RESOURCE, MASTRA_THREAD, memIdsOf, toMastraRecords } from './mastra-messages.ts';

const fileSize = (p: string) => statSync(p, { throwIfNoEntry: false })?.size ?? 0;

/**
 * The `lastMessages` that keeps ~4,000 tokens: the most Mastra records (2 per interaction: the
 * user message, the assistant message with the tool invocation and the answer) that fit within
 * the budget, counted as mem counts them, at every point of the conversation's first
 * `interactions` — so Mastra's prompt stays within the budget, like the others'.
 */
export function mastraLastMessages(workload: Workload, interactions: number): number {
  const tokens: number[] = [];
  for (let i = 0; i < interactions; i++) {
    const [user, ...rest] = workload.turnAt(i);
    tokens.push(
      user!.tokenCount,
      rest.reduce((s, m) => s + m.tokenCount, 0),
    );
  }
  const room = BUDGET_TOKENS - workload.counter.replyPrimingTokens;
  let least = Number.POSITIVE_INFINITY;
  for (let end = tokens.length; end > 0; end--) {
    let used = 0;
    let k = 0;
    while (k < end && used + tokens[end - 1 - k]! <= room) used += tokens[end - 1 - k++]!;
    if (k < end) least = Math.min(least, k);
  }
  return Number.isFinite(least) ? least : tokens.length;
}

/**
 * Mastra: `Memory` from @mastra/memory on `LibSQLStore` (@mastra/libsql, a `file:` database),
 * options `{ lastMessages }` (no semantic recall, no working memory). Pre-fill: the storage's
 * `saveMessages`, 2,000 records per call. Turn: `memory.saveMessages` of the interaction's
 * records, then what an Agent runs to read the thread: the `MessageHistory` input processor
 * (as `Memory` builds it for `lastMessages`) filling a fresh `MessageList`, thread and resource
 * passed in the `RequestContext` as the Agent does.
 */
export function openMastraSystem({ dir, workload }: OpenSystemOptions, lastMessages: number) {
  const path = join(dir, 'mastra.db');
  const storage = new LibSQLStore({ id: 'peer-bench', url: `file:${path}` });
  const memory = new Memory({ storage, options: { lastMessages } });
  const requestContext = new RequestContext();
  requestContext.set('MastraMemory', {
    thread: { id: MASTRA_THREAD },
    resourceId: MASTRA_RESOURCE,
  });
  let history: MessageHistory | undefined;
  const ready = (async () => {
    await memory.createThread({ threadId: MASTRA_THREAD, resourceId: MASTRA_RESOURCE });
    const store = await storage.getStore('memory');
    if (!store) throw new Error('LibSQLStore has no memory domain');
    history = new MessageHistory({ storage: store, lastMessages });
    return store;
  })();
  const abort = (reason?: string): never => {
    throw new Error(`aborted: ${reason}`);
  };
  const tokensOf = new Map<string, number>();
  const system: PeerSystem = {
    name: 'Mastra',
    async prefill(interactions) {
      const store = await ready;
      const batch = 1_000;
      for (let i = 0; i < interactions; i += batch) {
        const records = [];
        for (let t = i; t < Math.min(interactions, i + batch); t++) {
          records.push(...toMastraRecords(workload.turnAt(t)));
        }
        await store.saveMessages({ messages: records });
      }
    },
    async warm() {
      await ready;
    },
    async turn(i) {
      const turn = workload.turnAt(i);
      for (const m of turn) tokensOf.set(m.id, m.tokenCount);
      await memory.saveMessages({ messages: toMastraRecords(turn) });
      const messageList = new MessageList({ threadId: MASTRA_THREAD, resourceId: MASTRA_RESOURCE });
      await history!.processInput({ messages: [], messageList, abort, requestContext });
      const ids = messageList.get.all.db().flatMap((r) => memIdsOf(r.id));
      const tokens = ids.reduce(
        (s, id) => s + (tokensOf.get(id) ?? tokenCountOf(workload, id)),
        workload.counter.replyPrimingTokens,
      );
      return { ids, tokens };
    },
    bytesOnDisk: () => sqliteBytes(path, fileSize),
    close: async () => {
      await (storage as { close?: () => Promise<void> }).close?.();
    },
  };
  return system;
}

/** Token count of mem message `t<i>.<k>` from the workload. */
function tokenCountOf(workload: Workload, id: string): number {
  const [turn, k] = id.slice(1).split('.');
  return workload.turnAt(Number(turn))[Number(k)]!.tokenCount;
}
