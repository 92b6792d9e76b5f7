import { type CountedMessage, isSummaryMessage, messageText } from '../../model/message.ts';
import { summaryBody } from '../../model/summary-message.ts';

export const SUMMARIES_HEADING = '=== Previous Conversation Summaries ===';
export const RECENT_HEADING = '=== Recent Conversation ===';

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function timeRangeLine(message: CountedMessage): string {
  const range = message.metadata?.timeRange as { start?: unknown; end?: unknown } | undefined;
  const start = typeof range?.start === 'number' ? range.start : message.createdAt;
  const end = typeof range?.end === 'number' ? range.end : message.createdAt;
  return `[${day(start)} - ${day(end)}]`;
}

/** One line (or block) of the recent conversation. */
function line(message: CountedMessage): string {
  const text = messageText(message);
  switch (message.role) {
    case 'user':
      return `User: ${text}`;
    case 'assistant': {
      const calls = (message.toolCalls ?? []).map((c) => `Tool call: ${c.name}(${c.arguments})`);
      return [
        ...(text.length > 0 || calls.length === 0 ? [`Assistant: ${text}`] : []),
        ...calls,
      ].join('\n');
    }
    case 'tool':
      return `${message.isError === true ? 'Tool error' : 'Tool result'} (${message.toolName ?? 'unknown'}): ${text}`;
    case 'system': {
      const source = message.metadata?.source;
      if (typeof source === 'string') return `Context (${source}): ${text}`;
      return message.metadata?.kind === 'context' ? `Context: ${text}` : `System: ${text}`;
    }
  }
}

/**
 * The Memory Manager's text form of the engine's context (summaries, then the active entries
 * made into a valid prompt):
 *
 * ```text
 * === Previous Conversation Summaries ===
 * [2024-01-01 - 2024-01-02]
 * User discussed API design, created routes...
 *
 * === Recent Conversation ===
 * User: How do I add auth?
 * Assistant: You can use JWT...
 * ```
 *
 * Tool calls read `Tool call: name(arguments)`, results `Tool result (name): ...` (`Tool error`
 * when it failed), added context `Context (source): ...` (pinned too), a system prompt
 * `System: ...`. A section with nothing in it is left out; an empty session gives `''`.
 */
export function formatContext(messages: readonly CountedMessage[]): string {
  const summaries = messages.filter(isSummaryMessage);
  const recent = messages.filter((m) => !isSummaryMessage(m));
  const sections: string[] = [];
  if (summaries.length > 0) {
    const blocks = summaries.map((m) => `${timeRangeLine(m)}\n${summaryBody(m)}`);
    sections.push(`${SUMMARIES_HEADING}\n${blocks.join('\n\n')}`);
  }
  if (recent.length > 0) sections.push([RECENT_HEADING, ...recent.map(line)].join('\n'));
  return sections.join('\n\n');
}
