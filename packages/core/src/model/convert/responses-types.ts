/*
 * Structural copies of the OpenAI Responses API input item types (`openai` v6,
 * `ResponseInputItem`), so core needs no dependency on the SDK. `responses-sdk.test.ts` checks
 * that what mem writes is a valid `input` and that SDK items are accepted.
 */

export interface ResponsesInputText {
  type: 'input_text';
  text: string;
}

export interface ResponsesInputImage {
  type: 'input_image';
  detail: 'low' | 'high' | 'auto' | 'original';
  image_url?: string | null;
  file_id?: string | null;
}

export interface ResponsesInputFile {
  type: 'input_file';
  file_data?: string;
  file_id?: string | null;
  file_url?: string;
  filename?: string;
}

export type ResponsesInputContent = ResponsesInputText | ResponsesInputImage | ResponsesInputFile;

/** A message item as mem writes it (`EasyInputMessage`). */
export interface ResponsesMessageItem {
  type?: 'message';
  role: 'user' | 'assistant' | 'system' | 'developer';
  content: string | ResponsesInputContent[];
}

/** A function call of the model (`ResponseFunctionToolCall`). */
export interface ResponsesFunctionCallItem {
  type: 'function_call';
  call_id: string;
  name: string;
  arguments: string;
  id?: string;
}

/** A function's result (`ResponseInputItem.FunctionCallOutput`). */
export interface ResponsesFunctionCallOutputItem {
  type: 'function_call_output';
  call_id: string;
  output: string | ResponsesInputContent[];
}

/**
 * One item of a Responses API `input`, as `toResponsesInput` writes it. Items mem read verbatim
 * (reasoning, assistant output messages, hosted tool calls...) come back exactly as they were.
 */
export type ResponsesItem =
  | ResponsesMessageItem
  | ResponsesFunctionCallItem
  | ResponsesFunctionCallOutputItem;

/**
 * What `fromResponsesItems` reads: any `ResponseInputItem` or `ResponseOutputItem` (a
 * `response.output` entry), checked at run time.
 */
export interface ResponsesItemLike {
  readonly type?: string | null | undefined;
}
