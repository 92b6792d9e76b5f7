import type { Message } from './message.ts';

/** First line of every summary message the engine writes; the summary text follows. */
export const SUMMARY_HEADER = 'Summary of the earlier conversation';

/** A summary message's text without its header line. */
export function summaryBody(message: Pick<Message, 'content'>): string {
  const text = typeof message.content === 'string' ? message.content : '';
  return text.startsWith(SUMMARY_HEADER) ? text.slice(text.indexOf('\n') + 1) : text;
}
