import { fromModelMessages, type Message, type ModelMessageLike, toModelMessages } from '@mem/core';
import type { PromptMessageLike, ResultContentLike } from './middleware-types.ts';

/*
 * The provider prompt (`LanguageModelV3Prompt`) has the shapes of the AI SDK's `ModelMessage`
 * except that user and assistant content is always a part array and images are file parts, so
 * core's AI SDK converters do the work and this file only closes the gaps.
 */

/** Provider prompt messages to mem messages (system messages included). */
export function fromPrompt(prompt: readonly PromptMessageLike[]): Message[] {
  return fromModelMessages(prompt as readonly ModelMessageLike[]);
}

type Part = Record<string, unknown> & { type: string };

function promptPart(part: Part): Part {
  if (part.type !== 'image') return part;
  // `ModelMessage` image parts are file parts in a provider prompt.
  const { image, mediaType, type: _type, ...rest } = part;
  return { ...rest, type: 'file', data: image, mediaType: mediaType ?? 'image/*' };
}

/** mem messages (a session's context) to provider prompt messages. */
export function toPrompt(messages: readonly Message[]): PromptMessageLike[] {
  return toModelMessages(messages).map((m): PromptMessageLike => {
    if (m.role === 'system' || m.role === 'tool') return m;
    const parts: Part[] =
      typeof m.content === 'string'
        ? m.content.length === 0
          ? []
          : [{ type: 'text', text: m.content }]
        : (m.content as unknown as Part[]).map(promptPart);
    return { ...m, content: parts };
  });
}

function parseInput(input: unknown): unknown {
  if (typeof input !== 'string') return input;
  try {
    return JSON.parse(input);
  } catch {
    return input;
  }
}

function withOptions(part: Part, item: ResultContentLike): Part {
  const meta = item.providerMetadata;
  return meta === undefined || meta === null ? part : { ...part, providerOptions: meta };
}

function responsePart(item: ResultContentLike): Part | undefined {
  switch (item.type) {
    case 'text':
    case 'reasoning':
      if (typeof item.text !== 'string' || (item.text.length === 0 && item.type === 'text'))
        return undefined;
      return withOptions({ type: item.type, text: item.text }, item);
    case 'file':
      return withOptions({ type: 'file', data: item.data, mediaType: item.mediaType }, item);
    case 'tool-call': {
      const call: Part = {
        type: 'tool-call',
        toolCallId: item.toolCallId,
        toolName: item.toolName,
        input: parseInput(item.input),
      };
      if (item.providerExecuted === true) call.providerExecuted = true;
      return withOptions(call, item);
    }
    case 'tool-result':
      return withOptions(
        {
          type: 'tool-result',
          toolCallId: item.toolCallId,
          toolName: item.toolName,
          output:
            item.isError === true
              ? { type: 'error-json', value: item.result ?? null }
              : { type: 'json', value: item.result ?? null },
        },
        item,
      );
    default:
      // Sources, approval requests and parts the prompt has no place for are not history.
      return undefined;
  }
}

/**
 * The assistant message a model response becomes in the next prompt (as the AI SDK builds it for
 * the next step: tool inputs parsed, provider metadata sent back as provider options), converted
 * to mem messages. Empty when the response has nothing to keep.
 */
export function fromResponse(content: readonly ResultContentLike[]): Message[] {
  const parts = content.flatMap((item) => responsePart(item) ?? []);
  if (parts.length === 0) return [];
  return fromPrompt([{ role: 'assistant', content: parts }]);
}
