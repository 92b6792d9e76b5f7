import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import type { CountedMessage, Message, TokenCounter } from '@mem/core';

const text = (content: unknown): string => (typeof content === 'string' ? content : '');

/** A mem message as LangChain's message classes hold it (same id). */
export function toLangChain(m: CountedMessage): BaseMessage {
  const content = text(m.content);
  if (m.role === 'user') return new HumanMessage({ content, id: m.id });
  if (m.role === 'tool') {
    return new ToolMessage({
      content,
      id: m.id,
      tool_call_id: m.toolCallId ?? '',
      ...(m.toolName === undefined ? {} : { name: m.toolName }),
      status: m.isError ? 'error' : 'success',
    });
  }
  return new AIMessage({
    content,
    id: m.id,
    tool_calls: (m.toolCalls ?? []).map((c) => ({
      id: c.id,
      name: c.name,
      args: JSON.parse(c.arguments) as Record<string, unknown>,
      type: 'tool_call' as const,
    })),
  });
}

/** Back to mem's model, for counting with mem's counter. */
function fromLangChain(m: BaseMessage): Message {
  const id = m.id ?? '';
  const content = text(m.content);
  if (HumanMessage.isInstance(m)) return { id, role: 'user', content, createdAt: 0 };
  if (ToolMessage.isInstance(m)) {
    return {
      id,
      role: 'tool',
      content,
      createdAt: 0,
      toolCallId: m.tool_call_id,
      toolName: m.name ?? '',
    };
  }
  const calls = AIMessage.isInstance(m) ? (m.tool_calls ?? []) : [];
  return {
    id,
    role: 'assistant',
    content,
    createdAt: 0,
    ...(calls.length === 0
      ? {}
      : {
          toolCalls: calls.map((c) => ({
            id: c.id ?? '',
            name: c.name,
            arguments: JSON.stringify(c.args),
          })),
        }),
  };
}

/**
 * `trimMessages`' token counter: mem's counter (o200k_base, chat overhead and reply priming, as
 * mem counts its budget), memoized per message id — the best a LangGraph user can do, since every
 * turn reads the messages back from the checkpoint as new objects.
 */
export function memoizedCounter(counter: TokenCounter): (messages: BaseMessage[]) => number {
  const memo = new Map<string, number>();
  return (messages) => {
    let total = counter.replyPrimingTokens;
    for (const m of messages) {
      const id = m.id ?? '';
      let n = memo.get(id);
      if (n === undefined) {
        n = counter.countMessage(fromLangChain(m));
        if (id !== '') memo.set(id, n);
      }
      total += n;
    }
    return total;
  };
}
