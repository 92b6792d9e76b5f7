import {
  type CountedMessage,
  isSummaryMessage,
  type Message,
  messageText,
} from '../../model/message.ts';
import { summaryBody } from '../../model/summary-message.ts';

const LABELS: Record<Message['role'], string> = {
  system: 'System',
  user: 'User',
  assistant: 'Assistant',
  tool: 'Tool',
};

/** One message as a labelled line: `User: ...`, `Assistant: ...`, `Summary: ...`. */
export function messageLine(message: Message): string {
  if (isSummaryMessage(message)) {
    const body = summaryBody(message as CountedMessage);
    return `Summary of earlier turns: ${body}`;
  }
  const label =
    message.role === 'tool' && message.toolName
      ? `Tool (${message.toolName})`
      : LABELS[message.role];
  return `${label}: ${messageText(message)}`;
}

/** A conversation as plain text, one labelled message after the other. */
export function renderMemoryText(messages: readonly Message[]): string {
  return messages.map(messageLine).join('\n');
}
