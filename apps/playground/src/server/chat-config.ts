import type { PublicChatConfig } from './contract.ts';

/** Which model the live chat talks to, read from the environment. */
export type ChatConfig =
  | { enabled: false; help: string }
  | {
      enabled: true;
      provider: 'openai' | 'anthropic';
      model: string;
      apiKey: string;
      baseURL?: string;
      help: string;
    };

export const DEFAULT_OPENAI_MODEL = 'gpt-4o-mini';
export const DEFAULT_ANTHROPIC_MODEL = 'claude-3-5-haiku-latest';

/** How to turn the chat on; shown in the page and in the 409 of POST /api/chat. */
export const CHAT_HELP = [
  'Live chat is off: no model is configured. Stop the server and start it again with one of:',
  `  OpenAI:     OPENAI_API_KEY=sk-... mem-playground serve   (model: MEM_CHAT_MODEL, default ${DEFAULT_OPENAI_MODEL})`,
  `  Anthropic:  ANTHROPIC_API_KEY=sk-ant-... mem-playground serve   (model: MEM_CHAT_MODEL, default ${DEFAULT_ANTHROPIC_MODEL})`,
  '  Local (Ollama or any OpenAI-compatible endpoint):',
  '    OPENAI_BASE_URL=http://127.0.0.1:11434/v1 OPENAI_API_KEY=ollama MEM_CHAT_MODEL=llama3.2 mem-playground serve',
  'The replay works without any of these.',
].join('\n');

const nonEmpty = (value: string | undefined) =>
  value !== undefined && value.trim() !== '' ? value.trim() : undefined;

/**
 * OPENAI_API_KEY (with optional OPENAI_BASE_URL) wins over ANTHROPIC_API_KEY (with optional
 * ANTHROPIC_BASE_URL); MEM_CHAT_MODEL names the model for either.
 */
export function chatConfigFromEnv(env: NodeJS.ProcessEnv): ChatConfig {
  const model = nonEmpty(env.MEM_CHAT_MODEL);
  const openaiKey = nonEmpty(env.OPENAI_API_KEY);
  if (openaiKey !== undefined) {
    const baseURL = nonEmpty(env.OPENAI_BASE_URL);
    return {
      enabled: true,
      provider: 'openai',
      model: model ?? DEFAULT_OPENAI_MODEL,
      apiKey: openaiKey,
      ...(baseURL === undefined ? {} : { baseURL }),
      help: `Chatting with ${model ?? DEFAULT_OPENAI_MODEL} through ${baseURL ?? 'the OpenAI API'}.`,
    };
  }
  const anthropicKey = nonEmpty(env.ANTHROPIC_API_KEY);
  if (anthropicKey !== undefined) {
    const baseURL = nonEmpty(env.ANTHROPIC_BASE_URL);
    return {
      enabled: true,
      provider: 'anthropic',
      model: model ?? DEFAULT_ANTHROPIC_MODEL,
      apiKey: anthropicKey,
      ...(baseURL === undefined ? {} : { baseURL }),
      help: `Chatting with ${model ?? DEFAULT_ANTHROPIC_MODEL} through ${baseURL ?? 'the Anthropic API'}.`,
    };
  }
  return { enabled: false, help: CHAT_HELP };
}

/** What GET /api/config tells the page (never the key). */
export function publicChatConfig(config: ChatConfig): PublicChatConfig {
  return config.enabled
    ? { enabled: true, provider: config.provider, model: config.model, help: config.help }
    : { enabled: false, help: config.help };
}
