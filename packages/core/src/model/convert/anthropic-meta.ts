/**
 * Metadata keys `fromAnthropicMessages` sets so `toAnthropicMessages` can rebuild the exact
 * request. Each is set only when the default rebuild would differ.
 */
export const ANTHROPIC_META = {
  /** WireResidue: extra fields of the wire message (on its first mem message). */
  message: 'mem.anthropic.message',
  /**
   * boolean: whether this user/tool message continues the previous mem message's Anthropic
   * message. Default: a tool message after a tool message does, anything else does not.
   */
  continues: 'mem.anthropic.continues',
  /** Record<content index, fields>: extra fields of typed blocks (`cache_control`, `citations`...). */
  parts: 'mem.anthropic.parts',
  /** Record<toolCalls index, fields>: extra fields of `tool_use` blocks (`cache_control`, `caller`...). */
  toolCalls: 'mem.anthropic.toolCalls',
  /** number[]: block positions of the `tool_use` blocks when they were not all after the content. */
  toolUseAt: 'mem.anthropic.toolUseAt',
  /** WireResidue: how the `tool_result` block differs from the rebuilt one (`cache_control`...). */
  block: 'mem.anthropic.block',
} as const;
