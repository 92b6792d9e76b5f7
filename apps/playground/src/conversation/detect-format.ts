/** The conversation formats the playground reads. */
export type ConversationFormat = 'mem' | 'openai' | 'anthropic';

const MEM_KEYS = ['id', 'createdAt', 'toolCalls', 'toolCallId', 'toolName', 'isError'];
const OPENAI_KEYS = ['tool_calls', 'tool_call_id', 'refusal', 'function_call', 'audio'];
const OPENAI_ROLES = ['developer', 'tool', 'function'];
const OPENAI_PARTS = ['image_url', 'input_audio', 'refusal'];
const ANTHROPIC_BLOCKS = [
  'tool_use',
  'tool_result',
  'thinking',
  'redacted_thinking',
  'document',
  'server_tool_use',
  'web_search_tool_result',
];

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Guesses the format of parsed JSON, from the most specific sign to the least:
 * - `format: "mem.conversation.v1"` or `sessions`: the project's format;
 * - a bare array: an OpenAI Chat Completions `messages` array;
 * - a top-level `system`: an Anthropic Messages request;
 * - messages with mem fields (`id`, `createdAt`, `toolCalls`, ...): the project's single-session form;
 * - OpenAI-only fields, roles or content parts; Anthropic-only content blocks;
 * - plain text messages read the same in every format: OpenAI.
 * Undefined when the JSON holds no conversation at all.
 */
export function detectFormat(json: unknown): ConversationFormat | undefined {
  if (Array.isArray(json)) return 'openai';
  if (!isRecord(json)) return undefined;
  if (typeof json.format === 'string' || 'sessions' in json) return 'mem';
  if (!Array.isArray(json.messages)) return undefined;
  if ('system' in json) return 'anthropic';
  const messages = json.messages.filter(isRecord);
  if (messages.some((m) => MEM_KEYS.some((k) => k in m))) return 'mem';
  const blocks = messages.flatMap((m) => (Array.isArray(m.content) ? m.content : []));
  const blockTypes = blocks.filter(isRecord).map((b) => b.type);
  if (
    messages.some(
      (m) =>
        OPENAI_KEYS.some((k) => k in m) ||
        OPENAI_ROLES.includes(String(m.role)) ||
        m.content === null,
    ) ||
    blockTypes.some((t) => OPENAI_PARTS.includes(String(t)))
  ) {
    return 'openai';
  }
  if (blockTypes.some((t) => ANTHROPIC_BLOCKS.includes(String(t)))) return 'anthropic';
  if (blocks.some((b) => isRecord(b) && b.type === 'image' && 'source' in b)) return 'anthropic';
  return 'openai';
}
