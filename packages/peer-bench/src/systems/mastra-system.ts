import { statSync } from 'node:fs';
import { join } from 'node:path';
import { type MastraDBMessage, MessageList } from '@mastra/core/agent';
import type { MemoryConfig } from '@mastra/core/memory';
import {
  type InputProcessor,
  MessageHistory,
  TokenLimiterProcessor,
} from '@mastra/core/processors';
import { RequestContext } from '@mastra/core/request-context';
import { LibSQLStore } from '@mastra/libsql';
import { Memory } from '@mastra/memory';
import { type OpenSystemOptions, type PeerSystem, sqliteBytes } from '../peer-system.ts';
import { BUDGET_TOKENS, type PromptView, type Workload } from '../workload.ts';
import { MASTRA_RESOURCE, MASTRA_THREAD, memIdsOf, toMastraRecords } from './mastra-messages.ts';

const fileSize = (p: string) => statSync(p, { throwIfNoEntry: false })?.size ?? 0;

/** The count cap of the token-limited line: high enough that the token budget always decides. */
export const MASTRA_TOKEN_LINE_LAST_MESSAGES = 200;

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

/** What both Mastra lines share: a `Memory` on a `LibSQLStore` file, its pre-fill and close. */
function openMastraBase({ dir, workload }: OpenSystemOptions, options: MemoryConfig) {
  const path = join(dir, 'mastra.db');
  const storage = new LibSQLStore({ id: 'peer-bench', url: `file:${path}` });
  const memory = new BenchMemory({ storage, options });
  const ready = (async () => {
    await memory.createThread({ threadId: MASTRA_THREAD, resourceId: MASTRA_RESOURCE });
    const store = await storage.getStore('memory');
    if (!store) throw new Error('LibSQLStore has no memory domain');
    return store;
  })();
  const tokensOf = new Map<string, number>();
  return {
    memory,
    ready,
    /** Pre-fill: the storage's `saveMessages`, 1,000 interactions a call. */
    async prefill(interactions: number) {
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
    /** `memory.saveMessages` of interaction `i`'s 2 records. */
    async save(i: number) {
      const turn = workload.turnAt(i);
      for (const m of turn) tokensOf.set(m.id, m.tokenCount);
      await memory.saveMessages({ messages: toMastraRecords(turn) });
    },
    /** The prompt a `MessageList` holds, its tokens counted as mem counts them. */
    view(messageList: MessageList): PromptView & { records: MastraDBMessage[] } {
      const records = messageList.get.all.db();
      const ids = records.flatMap((r) => memIdsOf(r.id));
      const tokens = ids.reduce(
        (s, id) => s + (tokensOf.get(id) ?? tokenCountOf(workload, id)),
        workload.counter.replyPrimingTokens,
      );
      return { ids, tokens, records };
    },
    bytesOnDisk: () => sqliteBytes(path, fileSize),
    close: async () => {
      await (storage as { close?: () => Promise<void> }).close?.();
    },
  };
}

/** `Memory` unchanged, with its (protected) token counter reachable for the test's count. */
class BenchMemory extends Memory {
  tokenCounter() {
    return this.createMemoryTokenCounter();
  }
}

const abort = (reason?: string): never => {
  throw new Error(`aborted: ${reason}`);
};

/**
 * Mastra: `Memory` from @mastra/memory on `LibSQLStore` (@mastra/libsql, a `file:` database),
 * options `{ lastMessages }` (no semantic recall, no working memory). Pre-fill: the storage's
 * `saveMessages`, 2,000 records per call. Turn: `memory.saveMessages` of the interaction's
 * records, then what an Agent runs to read the thread: the `MessageHistory` input processor
 * (as `Memory` builds it for `lastMessages`) filling a fresh `MessageList`, thread and resource
 * passed in the `RequestContext` as the Agent does. No token is counted on this path.
 */
export function openMastraSystem(options: OpenSystemOptions, lastMessages: number): PeerSystem {
  const base = openMastraBase(options, { lastMessages });
  const requestContext = new RequestContext();
  requestContext.set('MastraMemory', {
    thread: { id: MASTRA_THREAD },
    resourceId: MASTRA_RESOURCE,
  });
  const history = base.ready.then((store) => new MessageHistory({ storage: store, lastMessages }));
  return {
    name: `Mastra lastMessages ${lastMessages}`,
    prefill: base.prefill,
    async warm() {
      await history;
    },
    async turn(i) {
      await base.save(i);
      const messageList = new MessageList({ threadId: MASTRA_THREAD, resourceId: MASTRA_RESOURCE });
      await (await history).processInput({ messages: [], messageList, abort, requestContext });
      const { ids, tokens } = base.view(messageList);
      return { ids, tokens };
    },
    bytesOnDisk: base.bytesOnDisk,
    close: base.close,
  };
}

/**
 * Mastra with its token budget for memory: `Memory` options
 * `{ lastMessages: 200, messageHistory: { maxTokens: 4000 } }` (the option that replaces the
 * deprecated count; `atMaxRemoveTokens` left at its default, 25% of the budget). Turn:
 * `memory.saveMessages`, then what an Agent runs on a turn with this memory: it reads the thread
 * (`memory.getThreadById`, whose metadata carries the limiter's cursor) into the
 * `RequestContext`, runs `processInput` of every input processor `memory.getInputProcessors()`
 * returns — `MemoryInputFilter`, `MessageHistory` (token-limited load: pages of 40 newest
 * records, each counted by @mastra/memory's `TokenCounter`) and the memory-only
 * `TokenLimiterProcessor` (trims the oldest records when the list passes 4,000 tokens and
 * stores a cursor in the thread's metadata) — then `processInputStep` of step 0 (the limiter
 * again), into a fresh `MessageList`.
 */
export function openMastraTokenLimitSystem(
  options: OpenSystemOptions,
  lastMessages = MASTRA_TOKEN_LINE_LAST_MESSAGES,
): PeerSystem {
  const base = openMastraBase(options, {
    lastMessages,
    messageHistory: { maxTokens: BUDGET_TOKENS },
  });
  const { memory } = base;
  const processors = base.ready.then(() => memory.getInputProcessors([], new RequestContext()));
  // The count the limiter uses: the memory's `TokenCounter` (tokenx estimate) per record, plus
  // 24 per conversation (`TokenLimiterProcessor.trimMemory`'s total; no system messages here).
  const counter = new TokenLimiterProcessor({
    limit: BUDGET_TOKENS,
    tokenCounter: memory.tokenCounter(),
  });
  return {
    name: 'Mastra + token limit',
    prefill: base.prefill,
    async warm() {
      await processors;
    },
    async turn(i) {
      await base.save(i);
      const thread = await memory.getThreadById({ threadId: MASTRA_THREAD });
      if (!thread) throw new Error('the Mastra thread is missing');
      const requestContext = new RequestContext();
      requestContext.set('MastraMemory', { thread, resourceId: MASTRA_RESOURCE });
      const messageList = new MessageList({ threadId: MASTRA_THREAD, resourceId: MASTRA_RESOURCE });
      const args = {
        messages: [],
        systemMessages: [],
        state: {},
        messageList,
        abort,
        requestContext,
      };
      const list = await processors;
      for (const p of list) await runInput(p, args);
      for (const p of list)
        await runInputStep(p, { ...args, stepNumber: 0, steps: [], retryCount: 0 });
      const { ids, tokens, records } = base.view(messageList);
      return { ids, tokens, ownTokens: () => countMastra(counter, records) };
    },
    bytesOnDisk: base.bytesOnDisk,
    close: base.close,
  };
}

type InputArgs = Parameters<NonNullable<InputProcessor['processInput']>>[0];
type InputStepArgs = Parameters<NonNullable<InputProcessor['processInputStep']>>[0];

async function runInput(p: InputProcessor, args: object): Promise<void> {
  await p.processInput?.(args as InputArgs);
}

async function runInputStep(p: InputProcessor, args: object): Promise<void> {
  await p.processInputStep?.(args as InputStepArgs);
}

async function countMastra(
  counter: TokenLimiterProcessor,
  records: readonly MastraDBMessage[],
): Promise<number> {
  let total = 24;
  for (const r of records) total += await counter.countMessage(r);
  return total;
}

/** Token count of mem message `t<i>.<k>` from the workload. */
function tokenCountOf(workload: Workload, id: string): number {
  const [turn, k] = id.slice(1).split('.');
  return workload.turnAt(Number(turn))[Number(k)]!.tokenCount;
}
