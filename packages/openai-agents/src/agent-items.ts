import type { Message, MessageInput } from '@mem/core';
import type { AgentInputItem } from '@openai/agents';

/**
 * Where a stored message keeps the Agents SDK item it was made from, verbatim, so `getItems`
 * and `popItem` return exactly what `addItems` was given. The message's role, text and tool
 * fields are derived from the item for mem's token counting, windows and summaries.
 *
 * (When `@mem/core` ships its Responses-API converters, `itemToMessage` can become
 * `fromResponsesItems` and the fallback in `messageToItems` `toResponsesInput`; the stored key
 * stays, so existing sessions keep reading back exactly.)
 */
export const AGENT_ITEM_KEY = 'mem.openai-agents.item';

type Item = Record<string, unknown>;

/**
 * The mem message that stands for one Agents SDK item, checked by `validateItems` (a plain
 * JSON copy the message may keep).
 */
export function itemToMessage(item: AgentInputItem): MessageInput {
  const raw = item as unknown as Item;
  const metadata = { [AGENT_ITEM_KEY]: raw };
  const type = raw.type;
  if (type === 'function_call') {
    return {
      role: 'assistant',
      content: '',
      toolCalls: [
        { id: raw.callId as string, name: raw.name as string, arguments: raw.arguments as string },
      ],
      metadata,
    };
  }
  if (type === 'function_call_result') {
    return {
      role: 'tool',
      content: textOf(raw.output),
      toolCallId: raw.callId as string,
      toolName: raw.name as string,
      ...(raw.status === 'incomplete' ? { isError: true } : {}),
      metadata,
    };
  }
  if ((type === undefined || type === 'message') && typeof raw.role === 'string') {
    const role = raw.role === 'developer' ? 'system' : raw.role;
    if (role === 'user' || role === 'system' || role === 'assistant') {
      return { role, content: textOf(raw.content), metadata };
    }
  }
  // Reasoning, hosted and computer tool calls, compaction markers, ...: model-side items,
  // counted by their text (or their JSON when they have none).
  const text = type === 'reasoning' ? textOf([raw.content, raw.rawContent]) : '';
  return { role: 'assistant', content: text === '' ? JSON.stringify(raw) : text, metadata };
}

/**
 * The Agents SDK items for a message of the context: the stored item when the message came
 * from `addItems`, else (summaries, recalled knowledge, messages written through other mem
 * APIs) Responses-shaped items built from the message.
 */
export function messageToItems(message: Message): AgentInputItem[] {
  const stored = message.metadata?.[AGENT_ITEM_KEY];
  if (typeof stored === 'object' && stored !== null) {
    return [structuredClone(stored) as AgentInputItem];
  }
  const text = textOf(message.content);
  if (message.role === 'system' || message.role === 'user') {
    return [{ type: 'message', role: message.role, content: text } as AgentInputItem];
  }
  if (message.role === 'tool') {
    return [
      {
        type: 'function_call_result',
        callId: message.toolCallId ?? '',
        name: message.toolName ?? '',
        status: 'completed',
        output: text,
      } as AgentInputItem,
    ];
  }
  const items: AgentInputItem[] = [];
  if (text !== '') {
    items.push({
      type: 'message',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text }],
    } as AgentInputItem);
  }
  for (const call of message.toolCalls ?? []) {
    items.push({
      type: 'function_call',
      callId: call.id,
      name: call.name,
      arguments: call.arguments,
    } as AgentInputItem);
  }
  return items;
}

/** The text of an item's content or output: strings, and the `text` of its parts, by line. */
function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    return value
      .map(textOf)
      .filter((t) => t !== '')
      .join('\n');
  }
  if (typeof value === 'object' && value !== null) {
    const { text, refusal } = value as Item;
    if (typeof text === 'string') return text;
    if (typeof refusal === 'string') return refusal;
  }
  return '';
}
