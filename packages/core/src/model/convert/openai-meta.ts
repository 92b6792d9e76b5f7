/**
 * Metadata keys `fromOpenAIMessages` sets so `toOpenAIMessages` can rebuild the exact messages.
 * Each is set only when the default rebuild would differ.
 */
export const OPENAI_META = {
  /** `'developer'` on a system message that was an OpenAI `developer` message. */
  role: 'mem.openai.role',
  /** WireResidue: message fields mem has no slot for (`refusal`, `audio`, `content: null`...). */
  message: 'mem.openai.message',
  /** Record<content index, fields>: extra fields of typed content parts. */
  parts: 'mem.openai.parts',
  /** string[]: ids of the tool calls that were `type: 'custom'` (free-text input) calls. */
  customToolCalls: 'mem.openai.customToolCalls',
} as const;
