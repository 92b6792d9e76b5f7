import type { MastraDBMessage } from '@mastra/core/agent';
import type { CountedMessage } from '@mem/core';

export const MASTRA_THREAD = 'bench';
export const MASTRA_RESOURCE = 'user-1';

const text = (m: CountedMessage): string => (typeof m.content === 'string' ? m.content : '');

/**
 * One interaction as Mastra's agent persists it: the user message, then one assistant message
 * whose parts are the tool invocation (call and result together, state `result`) and the answer.
 * The assistant record takes the answer's id, so a prompt's records map back to mem ids.
 */
export function toMastraRecords(turn: readonly CountedMessage[]): MastraDBMessage[] {
  const [user, call, result, answer] = turn;
  if (!user || !call || !result || !answer) throw new Error('a turn has 4 messages');
  const toolCall = call.toolCalls?.[0];
  if (!toolCall) throw new Error('the second message of a turn is a tool call');
  const base = { threadId: MASTRA_THREAD, resourceId: MASTRA_RESOURCE, type: 'v2' } as const;
  return [
    {
      ...base,
      id: user.id,
      role: 'user',
      createdAt: new Date(user.createdAt ?? 0),
      content: { format: 2, parts: [{ type: 'text', text: text(user) }], content: text(user) },
    },
    {
      ...base,
      id: answer.id,
      role: 'assistant',
      createdAt: new Date(call.createdAt ?? 0),
      content: {
        format: 2,
        parts: [
          {
            type: 'tool-invocation',
            toolInvocation: {
              state: 'result',
              toolCallId: toolCall.id,
              toolName: toolCall.name,
              args: JSON.parse(toolCall.arguments) as Record<string, unknown>,
              result: text(result),
              ...(result.isError ? { isError: true } : {}),
            },
          },
          { type: 'text', text: text(answer) },
        ],
      },
    },
  ];
}

/** The mem messages a Mastra record stands for (the assistant record: call, result, answer). */
export function memIdsOf(recordId: string): string[] {
  const [turn, k] = recordId.split('.');
  return k === '0' ? [recordId] : [`${turn}.1`, `${turn}.2`, `${turn}.3`];
}
