/**
 * Metadata keys `fromModelMessages` sets so `toModelMessages` can rebuild the exact messages.
 * Each is set only when the default rebuild would differ.
 */
export const AI_SDK_META = {
  /** WireResidue: message fields mem has no slot for (`providerOptions`...). */
  message: 'mem.ai-sdk.message',
  /**
   * `'tool'` on an assistant message that holds a tool message's non-result part (a
   * `tool-approval-response`) verbatim; it goes back into a tool message.
   */
  role: 'mem.ai-sdk.role',
  /** `false` on a tool message that started a new AI SDK tool message right after another one. */
  continues: 'mem.ai-sdk.continues',
  /** Record<content index, fields>: extra fields of typed parts (`providerOptions`...). */
  parts: 'mem.ai-sdk.parts',
  /** Record<content index, 'bytes' | 'buffer' | 'arraybuffer' | 'url'>: how binary data was given. */
  binary: 'mem.ai-sdk.binary',
  /** Record<toolCalls index, fields>: extra fields of `tool-call` parts (`providerExecuted`...). */
  toolCalls: 'mem.ai-sdk.toolCalls',
  /** number[]: part positions of the `tool-call` parts when they were not all after the content. */
  toolCallAt: 'mem.ai-sdk.toolCallAt',
  /** WireResidue: extra fields of the `tool-result` part. */
  part: 'mem.ai-sdk.part',
  /** `'json' | 'error-json' | 'execution-denied'`: tool output type when the content cannot tell. */
  outputType: 'mem.ai-sdk.outputType',
  /** WireResidue: how the tool output differs from the rebuilt one. */
  output: 'mem.ai-sdk.output',
} as const;
