/*
 * Structural copies of the OpenAI Chat Completions request message types (`openai` v6,
 * `ChatCompletionMessageParam`), so core needs no dependency on the SDK. What mem writes
 * (`OpenAIChatMessage`) is a request message of `openai` 6 and 7; what it reads
 * (`OpenAIChatMessageInput`) also takes what only 7 has. `sdk-compat.test.ts` checks both
 * majors.
 */

export interface OpenAITextPart {
  type: 'text';
  text: string;
}

export interface OpenAIRefusalPart {
  type: 'refusal';
  refusal: string;
}

export interface OpenAIImagePart {
  type: 'image_url';
  image_url: { url: string; detail?: 'auto' | 'low' | 'high' };
}

export interface OpenAIAudioPart {
  type: 'input_audio';
  input_audio: { data: string; format: 'wav' | 'mp3' };
}

export interface OpenAIFilePart {
  type: 'file';
  file: { file_data?: string; file_id?: string; filename?: string };
}

export type OpenAIUserContentPart =
  | OpenAITextPart
  | OpenAIImagePart
  | OpenAIAudioPart
  | OpenAIFilePart;

export interface OpenAIFunctionToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface OpenAICustomToolCall {
  id: string;
  type: 'custom';
  custom: { name: string; input: string };
}

export type OpenAIToolCall = OpenAIFunctionToolCall | OpenAICustomToolCall;

export interface OpenAISystemMessage {
  role: 'system';
  content: string | OpenAITextPart[];
  name?: string;
}

export interface OpenAIDeveloperMessage {
  role: 'developer';
  content: string | OpenAITextPart[];
  name?: string;
}

export interface OpenAIUserMessage {
  role: 'user';
  content: string | OpenAIUserContentPart[];
  name?: string;
}

export interface OpenAIAssistantMessage {
  role: 'assistant';
  content?: string | (OpenAITextPart | OpenAIRefusalPart)[] | null;
  refusal?: string | null;
  tool_calls?: OpenAIToolCall[];
  name?: string;
  audio?: { id: string } | null;
  /** Deprecated by OpenAI; kept verbatim. */
  function_call?: { name: string; arguments: string } | null;
}

export interface OpenAIToolMessage {
  role: 'tool';
  content: string | OpenAITextPart[];
  tool_call_id: string;
}

/** Deprecated by OpenAI; `fromOpenAIMessages` rejects it. */
export interface OpenAIFunctionMessage {
  role: 'function';
  content: string | null;
  name: string;
}

/**
 * An image part as `fromOpenAIMessages` reads it: `detail` may be any value a newer SDK has
 * (`openai` 7 adds `'original'`); one mem has no slot for is kept verbatim and written back.
 */
export interface OpenAIImagePartInput {
  type: 'image_url';
  image_url: { url: string; detail?: 'auto' | 'low' | 'high' | 'original' | (string & {}) };
}

/** A user message as `fromOpenAIMessages` reads it. */
export interface OpenAIUserMessageInput extends Omit<OpenAIUserMessage, 'content'> {
  content: string | (OpenAIUserContentPart | OpenAIImagePartInput)[];
}

/**
 * What `fromOpenAIMessages` reads: a request message of `openai` 6 or 7
 * (`ChatCompletionMessageParam`) or a response's message (`ChatCompletionMessage`).
 */
export type OpenAIChatMessageInput =
  | Exclude<OpenAIChatMessage, OpenAIUserMessage>
  | OpenAIUserMessageInput;

/**
 * One message of a Chat Completions request (`ChatCompletionMessageParam`), as
 * `toOpenAIMessages` writes it: accepted by `openai` 6 and 7.
 */
export type OpenAIChatMessage =
  | OpenAISystemMessage
  | OpenAIDeveloperMessage
  | OpenAIUserMessage
  | OpenAIAssistantMessage
  | OpenAIToolMessage
  | OpenAIFunctionMessage;
