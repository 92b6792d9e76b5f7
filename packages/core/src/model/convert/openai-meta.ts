/**
 * Metadata keys `fromOpenAIMessages` sets so `toOpenAIMessages` can rebuild the exact messages.
 * Each is set only when the default rebuild would differ.
 */
export const OPENAI_META = {
  /** `'developer'` on a system message that was an OpenAI `developer` message. */
  role: 'mem.openai.role',
  /** WireResidue: message fields mem has no slot for (`audio`, `content: null`...). */
  message: 'mem.openai.message',
  /** Record<content index, fields>: extra fields of typed content parts. */
  parts: 'mem.openai.parts',
  /** string[]: ids of the tool calls that were `type: 'custom'` (free-text input) calls. */
  customToolCalls: 'mem.openai.customToolCalls',
  /** true: the message text is the assistant's `refusal` (sent back as `refusal`, content null). */
  refusal: 'mem.openai.refusal',
  /** unknown[]: a response message's `annotations` (URL citations); kept, never sent back. */
  annotations: 'mem.openai.annotations',
} as const;
