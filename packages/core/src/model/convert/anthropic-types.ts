/*
 * Structural copies of the Anthropic Messages request types (`@anthropic-ai/sdk`, `MessageParam`)
 * so core needs no dependency on the SDK. Inputs are typed loosely (any block with a `type`,
 * checked at runtime); outputs are typed as the blocks mem writes, so they can be passed to the
 * SDK. `anthropic.test.ts` checks both directions.
 */

/** Any content block: the known ones are read field by field, the others kept verbatim. */
export interface AnthropicInputBlock {
  type: string;
}

export interface AnthropicInputMessage {
  /**
   * `user` or `assistant`. `system` is in the type only because the SDK's `MessageParam` has it:
   * the API refuses it inside `messages`, and so does `fromAnthropicMessages` (a
   * MemConversionError telling you to pass it as the top-level `system`).
   */
  role: 'user' | 'assistant' | 'system';
  content: string | readonly AnthropicInputBlock[];
}

/** What `fromAnthropicMessages` reads: the `system` and `messages` of a request. */
export interface AnthropicInput {
  system?: string | readonly AnthropicInputBlock[];
  messages: readonly AnthropicInputMessage[];
}

export interface AnthropicTextBlock {
  type: 'text';
  text: string;
}

export interface AnthropicImageBlock {
  type: 'image';
  source:
    | {
        type: 'base64';
        media_type: 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp';
        data: string;
      }
    | { type: 'url'; url: string };
}

export interface AnthropicDocumentBlock {
  type: 'document';
  source:
    | { type: 'base64'; media_type: 'application/pdf'; data: string }
    | { type: 'text'; media_type: 'text/plain'; data: string }
    | { type: 'url'; url: string };
  title?: string;
}

export interface AnthropicThinkingBlock {
  type: 'thinking';
  thinking: string;
  signature: string;
}

export interface AnthropicRedactedThinkingBlock {
  type: 'redacted_thinking';
  data: string;
}

export interface AnthropicToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: Record<string, unknown>;
}

export interface AnthropicToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content?: string | (AnthropicTextBlock | AnthropicImageBlock | AnthropicDocumentBlock)[];
  is_error?: boolean;
}

/**
 * A block `toAnthropicMessages` writes. Blocks kept verbatim from Anthropic input (server tool
 * blocks, `search_result`, extra fields such as `cache_control`) come back as they were read.
 */
export type AnthropicContentBlock =
  | AnthropicTextBlock
  | AnthropicImageBlock
  | AnthropicDocumentBlock
  | AnthropicThinkingBlock
  | AnthropicRedactedThinkingBlock
  | AnthropicToolUseBlock
  | AnthropicToolResultBlock;

/** A message `toAnthropicMessages` writes: never `system` (that goes to the top-level `system`). */
export interface AnthropicMessageParam {
  role: 'user' | 'assistant';
  content: string | AnthropicContentBlock[];
}

/** What `toAnthropicMessages` returns: spread it into `client.messages.create({...})`. */
export interface AnthropicPrompt {
  system?: string | AnthropicTextBlock[];
  messages: AnthropicMessageParam[];
}
