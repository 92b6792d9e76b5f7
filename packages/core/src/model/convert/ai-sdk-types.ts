/*
 * Structural copies of the Vercel AI SDK prompt message types (`ai`, `ModelMessage`), so core
 * needs no dependency on it. What mem writes (`ModelMessageLike`) is the part v6 and v7 share, so
 * it is a `ModelMessage` of both; what mem reads (`ModelMessageInput`) is any message of either
 * major, checked at runtime. `sdk-compat.test.ts` checks both against each major's real types.
 */

export type AiSdkJsonValue = null | string | number | boolean | AiSdkJsonObject | AiSdkJsonValue[];
export type AiSdkJsonObject = { [key: string]: AiSdkJsonValue | undefined };

/** `providerOptions`: per provider name, an object of options. */
export type AiSdkProviderOptions = Record<string, AiSdkJsonObject>;

/** Base64 text, bytes (Buffer included) or a URL. */
export type AiSdkDataContent = string | Uint8Array | ArrayBuffer;

export interface AiSdkTextPart {
  type: 'text';
  text: string;
  providerOptions?: AiSdkProviderOptions;
}

export interface AiSdkImagePart {
  type: 'image';
  image: AiSdkDataContent | URL;
  mediaType?: string;
  providerOptions?: AiSdkProviderOptions;
}

export interface AiSdkFilePart {
  type: 'file';
  data: AiSdkDataContent | URL;
  filename?: string;
  mediaType: string;
  providerOptions?: AiSdkProviderOptions;
}

export interface AiSdkReasoningPart {
  type: 'reasoning';
  text: string;
  providerOptions?: AiSdkProviderOptions;
}

export interface AiSdkToolCallPart {
  type: 'tool-call';
  toolCallId: string;
  toolName: string;
  input: unknown;
  providerOptions?: AiSdkProviderOptions;
  providerExecuted?: boolean;
}

type WithOptions = { providerOptions?: AiSdkProviderOptions };

/** An item of a `content` tool output. */
export type AiSdkToolOutputItem =
  | ({ type: 'text'; text: string } & WithOptions)
  | ({ type: 'file-data'; data: string; mediaType: string; filename?: string } & WithOptions)
  | ({ type: 'file-url'; url: string; mediaType?: string } & WithOptions)
  | ({ type: 'file-id'; fileId: string | Record<string, string> } & WithOptions)
  | ({ type: 'image-data'; data: string; mediaType: string } & WithOptions)
  | ({ type: 'image-url'; url: string } & WithOptions)
  | ({ type: 'image-file-id'; fileId: string | Record<string, string> } & WithOptions)
  | ({ type: 'custom' } & WithOptions);

export type AiSdkToolResultOutput =
  | ({ type: 'text'; value: string } & WithOptions)
  | ({ type: 'json'; value: AiSdkJsonValue } & WithOptions)
  | ({ type: 'execution-denied'; reason?: string } & WithOptions)
  | ({ type: 'error-text'; value: string } & WithOptions)
  | ({ type: 'error-json'; value: AiSdkJsonValue } & WithOptions)
  | { type: 'content'; value: AiSdkToolOutputItem[] };

export interface AiSdkToolResultPart {
  type: 'tool-result';
  toolCallId: string;
  toolName: string;
  output: AiSdkToolResultOutput;
  providerOptions?: AiSdkProviderOptions;
}

export interface AiSdkToolApprovalRequest {
  type: 'tool-approval-request';
  approvalId: string;
  toolCallId: string;
  signature?: string;
  inputSchemaInput?: unknown;
}

export interface AiSdkToolApprovalResponse {
  type: 'tool-approval-response';
  approvalId: string;
  approved: boolean;
  reason?: string;
  providerExecuted?: boolean;
}

export interface AiSdkSystemMessage {
  role: 'system';
  content: string;
  providerOptions?: AiSdkProviderOptions;
}

export interface AiSdkUserMessage {
  role: 'user';
  content: string | (AiSdkTextPart | AiSdkImagePart | AiSdkFilePart)[];
  providerOptions?: AiSdkProviderOptions;
}

export interface AiSdkAssistantMessage {
  role: 'assistant';
  content:
    | string
    | (
        | AiSdkTextPart
        | AiSdkFilePart
        | AiSdkReasoningPart
        | AiSdkToolCallPart
        | AiSdkToolResultPart
        | AiSdkToolApprovalRequest
      )[];
  providerOptions?: AiSdkProviderOptions;
}

export interface AiSdkToolMessage {
  role: 'tool';
  content: (AiSdkToolResultPart | AiSdkToolApprovalResponse)[];
  providerOptions?: AiSdkProviderOptions;
}

/** One AI SDK prompt message as mem writes it: a `ModelMessage` of `ai` v6 and of v7. */
export type ModelMessageLike =
  | AiSdkSystemMessage
  | AiSdkUserMessage
  | AiSdkAssistantMessage
  | AiSdkToolMessage;

/**
 * A part of an AI SDK message as mem reads it: a part mem writes, or any other part with a type
 * (checked at runtime).
 */
export type AiSdkInputPart =
  | Exclude<ModelMessageLike['content'], string>[number]
  | { readonly type: string };

/**
 * One AI SDK prompt message as mem reads it: a `ModelMessage` of `ai` v6 or v7 (v7 tagged file
 * data, provider references, custom and reasoning-file parts included). Parts mem has no type
 * for are kept verbatim.
 */
export type ModelMessageInput =
  | ModelMessageLike
  | {
      readonly role: 'system' | 'user' | 'assistant' | 'tool';
      readonly content: string | readonly AiSdkInputPart[];
      readonly providerOptions?: unknown;
    };
