import type { Message } from '../message.ts';
import { memInputFail, wireInputFail } from './conversion-error.ts';
import { type FromWireOptions, messageStamper } from './convert-options.ts';
import { checkMemMessage, guarded, memMessages } from './guard-input.ts';
import { readItems } from './responses-read.ts';
import type { ResponsesItem, ResponsesItemLike } from './responses-types.ts';
import { messageItems } from './responses-write.ts';

const fromFail = wireInputFail('openai-responses');
const toFail = memInputFail('openai-responses');

/**
 * Converts OpenAI Responses API items — a request's `input` list, a response's `output`, or both
 * one after the other — to mem messages. User, system and `developer` messages (as `system`,
 * remembered in metadata) and `function_call_output` items are one message each. A run of
 * assistant-side items — assistant messages (`output_text` parts become text parts, annotations
 * kept), `function_call`s (as `toolCalls`), `reasoning` and every other item type (kept verbatim
 * as `openai-responses` provider parts) — becomes one assistant message. A function output's
 * `toolName` is set when its call is in the same batch; a result whose call was converted in an
 * earlier step keeps its `toolCallId` only. `toResponsesInput` gives the items back unchanged.
 */
export function fromResponsesItems(
  items: readonly (ResponsesItem | ResponsesItemLike)[],
  options?: FromWireOptions,
): Message[] {
  if (!Array.isArray(items)) {
    throw fromFail(
      'items',
      'is not an array',
      'Pass the `input` items of a request or the `output` of a response.',
    );
  }
  const stamp = messageStamper(options);
  return guarded(fromFail, 'items', () => readItems(items)).map(stamp);
}

/**
 * Converts mem messages to a Responses API `input` list. Messages read by `fromResponsesItems`
 * come back as the exact items; others are written as message items (assistant text as one
 * string), `function_call` and `function_call_output` items. Reasoning parts, other formats'
 * provider parts, media in assistant messages and `isError` have no place and are left out.
 */
export function toResponsesInput(messages: readonly Message[]): ResponsesItem[] {
  const out: ResponsesItem[] = [];
  memMessages(messages, toFail).forEach((message, i) => {
    const path = `messages[${i}]`;
    guarded(toFail, path, () => {
      checkMemMessage(message, path, toFail);
      for (const item of messageItems(message, path)) out.push(item as unknown as ResponsesItem);
    });
  });
  return out;
}
