/** Who wrote a message. `tool` messages carry a tool's result. */
export type Role = 'system' | 'user' | 'assistant' | 'tool';

export interface TextPart {
  type: 'text';
  text: string;
}

/** An image, as a URL (`https:`, `data:`) or base64 data with its media type. */
export interface ImagePart {
  type: 'image';
  /** URL, `data:` URL, or base64 payload (then `mediaType` is required by most providers). */
  image: string;
  mediaType?: string;
  /** OpenAI's `detail` hint. */
  detail?: 'auto' | 'low' | 'high';
}

/** A file or document (PDF, audio, ...), as a URL or base64 data. */
export interface FilePart {
  type: 'file';
  data: string;
  mediaType: string;
  filename?: string;
}

/** Model reasoning ("thinking") the provider asked to be sent back verbatim. */
export interface ReasoningPart {
  type: 'reasoning';
  text: string;
  /** Provider signature that must travel with the reasoning (Anthropic `signature`). */
  signature?: string;
  /** Encrypted/redacted reasoning payload (Anthropic `redacted_thinking.data`). */
  redacted?: string;
}

/**
 * A content block from a provider format that mem has no typed part for. Kept verbatim so
 * converting back to the same format is lossless; other formats skip it.
 */
export interface ProviderPart {
  type: 'provider';
  format: WireFormat;
  value: unknown;
}

export type ContentPart = TextPart | ImagePart | FilePart | ReasoningPart | ProviderPart;

/** The wire formats mem converts to and from. */
export type WireFormat = 'openai' | 'openai-responses' | 'anthropic' | 'ai-sdk';

/** A tool invocation requested by the assistant. */
export interface ToolCall {
  id: string;
  name: string;
  /** The arguments as JSON text, exactly as the model produced them. */
  arguments: string;
}

/**
 * One message of a conversation. Immutable once appended: strategies never mutate messages,
 * they select them.
 */
export interface Message {
  id: string;
  role: Role;
  content: string | ContentPart[];
  /** Assistant only: tools the model asked to run. */
  toolCalls?: ToolCall[];
  /** Tool only: the id of the call this message answers. */
  toolCallId?: string;
  /** Tool only: the name of the tool that ran. */
  toolName?: string;
  /** Tool only: the tool failed; `content` holds the error. */
  isError?: boolean;
  /** Optional participant name (OpenAI `name`). */
  name?: string;
  /** Milliseconds since the Unix epoch. */
  createdAt: number;
  /** Prompt tokens this message costs, counted once by a TokenCounter and then kept. */
  tokenCount?: number;
  metadata?: Record<string, unknown>;
}

/** A message whose token count has been computed. */
export type CountedMessage = Message & { tokenCount: number };

/** The text of a message's content: the string, or its text parts joined by newlines. */
export function messageText(message: Pick<Message, 'content'>): string {
  const { content } = message;
  if (typeof content === 'string') return content;
  let out = '';
  for (const part of content) {
    if (part.type === 'text') out = out.length === 0 ? part.text : `${out}\n${part.text}`;
  }
  return out;
}

/** True for a summary produced by a long-term strategy (a system message tagged `kind: summary`). */
export function isSummaryMessage(message: Message): boolean {
  return message.role === 'system' && message.metadata?.kind === 'summary';
}
