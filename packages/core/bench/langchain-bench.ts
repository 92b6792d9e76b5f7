import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
  trimMessages,
} from '@langchain/core/messages';
import { now, type BenchSummary as Summary, summarizeSamples } from '@mem/bench-kit';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import type { Message } from '../src/model/message.ts';
import { BUDGET, conversationFor } from './window-bench.ts';

const PLAIN = { disallowedSpecial: new Set<string>() };

function toLangChain(m: Message): BaseMessage {
  const content = typeof m.content === 'string' ? m.content : '';
  switch (m.role) {
    case 'system':
      return new SystemMessage(content);
    case 'user':
      return new HumanMessage(content);
    case 'tool':
      return new ToolMessage({ content, tool_call_id: m.toolCallId ?? '' });
    case 'assistant':
      return new AIMessage({
        content,
        tool_calls: (m.toolCalls ?? []).map((c) => ({
          id: c.id,
          name: c.name,
          args: JSON.parse(c.arguments),
          type: 'tool_call' as const,
        })),
      });
  }
}

/** The same gpt-tokenizer-based counting a LangChain user would write: content + tool-call args + overhead. */
function countOne(m: BaseMessage): number {
  let n =
    4 + countTokens(typeof m.content === 'string' ? m.content : JSON.stringify(m.content), PLAIN);
  if (m instanceof AIMessage)
    for (const c of m.tool_calls ?? [])
      n += countTokens(c.name + JSON.stringify(c.args), PLAIN) + 3;
  return n;
}

const plainCounter = (msgs: BaseMessage[]) => msgs.reduce((s, m) => s + countOne(m), 3);

function memoCounter(): (msgs: BaseMessage[]) => number {
  const memo = new WeakMap<BaseMessage, number>();
  return (msgs) => {
    let total = 3;
    for (const m of msgs) {
      let n = memo.get(m);
      if (n === undefined) {
        n = countOne(m);
        memo.set(m, n);
      }
      total += n;
    }
    return total;
  };
}

export interface TrimResult {
  interactions: number;
  counter: 'plain' | 'memoized';
  perCall: Summary;
}

/** LangChain.js trimMessages (strategy last, startOn human, includeSystem) after appending one turn. */
export async function benchTrim(
  history: number,
  turns: number,
  memoized: boolean,
): Promise<TrimResult> {
  const { past, next } = conversationFor(history, turns);
  const system = new SystemMessage('You are a helpful assistant.');
  const messages: BaseMessage[] = [system, ...past.map(toLangChain)];
  const tokenCounter = memoized ? memoCounter() : plainCounter;
  const samples: number[] = [];
  for (const turn of next.map((t) => t.map(toLangChain))) {
    const t0 = now();
    for (const m of turn) messages.push(m);
    await trimMessages(messages, {
      maxTokens: BUDGET,
      strategy: 'last',
      startOn: 'human',
      includeSystem: true,
      tokenCounter,
    });
    samples.push(Number(now() - t0));
  }
  return {
    interactions: history,
    counter: memoized ? 'memoized' : 'plain',
    perCall: summarizeSamples(samples),
  };
}
