import { statSync } from 'node:fs';
import { join } from 'node:path';
import { type BaseMessage, trimMessages } from '@langchain/core/messages';
import { END, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import BetterSqlite3 from 'better-sqlite3';
import { type OpenSystemOptions, type PeerSystem, sqliteBytes } from '../peer-system.ts';
import { BUDGET_TOKENS } from '../workload.ts';
import { memoizedCounter, toLangChain } from './langgraph-messages.ts';

const fileSize = (p: string) => statSync(p, { throwIfNoEntry: false })?.size ?? 0;
const CONFIG = { configurable: { thread_id: 'bench' } };

/**
 * LangGraph: a `StateGraph(MessagesAnnotation)` compiled with `SqliteSaver` (the checkpointer
 * opens the workspace's better-sqlite3 on the file; WAL, as `SqliteSaver` sets it). One node,
 * `prompt`, builds the next prompt with `trimMessages({ maxTokens: 4000, strategy: 'last',
 * startOn: 'human', includeSystem: true, tokenCounter })` over the thread's messages. Pre-fill:
 * one `updateState` with every message (one checkpoint). Turn: `invoke` with the 4 new messages
 * (the reducer appends them, the node trims, the checkpointer writes the new state).
 */
export function openLangGraphSystem({ dir, workload }: OpenSystemOptions): PeerSystem {
  const path = join(dir, 'langgraph.db');
  const db = new BetterSqlite3(path);
  const checkpointer = new SqliteSaver(db);
  const tokenCounter = memoizedCounter(workload.counter);
  let prompt: BaseMessage[] = [];
  const graph = new StateGraph(MessagesAnnotation)
    .addNode('prompt', async (state) => {
      prompt = await trimMessages(state.messages, {
        maxTokens: BUDGET_TOKENS,
        strategy: 'last',
        startOn: 'human',
        includeSystem: true,
        tokenCounter,
      });
      return {};
    })
    .addEdge(START, 'prompt')
    .addEdge('prompt', END)
    .compile({ checkpointer });
  return {
    name: 'LangGraph',
    async prefill(interactions) {
      const messages: BaseMessage[] = [];
      for (let i = 0; i < interactions; i++) messages.push(...workload.turnAt(i).map(toLangChain));
      await graph.updateState(CONFIG, { messages }, 'prompt');
    },
    async warm() {
      await graph.getState(CONFIG);
    },
    async turn(i) {
      await graph.invoke({ messages: workload.turnAt(i).map(toLangChain) }, CONFIG);
      return { ids: prompt.map((m) => m.id ?? ''), tokens: tokenCounter(prompt) };
    },
    bytesOnDisk: () => sqliteBytes(path, fileSize),
    close: async () => {
      db.close();
    },
  };
}
