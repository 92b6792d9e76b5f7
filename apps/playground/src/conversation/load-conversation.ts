import { basename, extname } from 'node:path';
import {
  type AnthropicInput,
  fromAnthropicMessages,
  fromOpenAIMessages,
  MemError,
  type Message,
  messageSchema,
  type OpenAIChatMessage,
} from '@mem/core';
import { z } from 'zod';
import type { Conversation } from '../replay/replay-types.ts';
import { ConversationFileError, type ConversationIssue } from './conversation-error.ts';
import { type ConversationFormat, detectFormat } from './detect-format.ts';
import { MAX_CONVERSATION_BYTES, readTextFile, TextFileError } from './read-text-file.ts';

/** createdAt given to messages without one: 5 January 2026, 09:00 UTC, one day per session. */
export const DEFAULT_START = Date.UTC(2026, 0, 5, 9);
const DAY = 86_400_000;
const MINUTE = 60_000;

const looseMessage = messageSchema.extend({
  id: messageSchema.shape.id.optional(),
  createdAt: messageSchema.shape.createdAt.optional(),
});
type LooseMessage = z.infer<typeof looseMessage>;
const memFile = z.object({
  format: z.literal('mem.conversation.v1').optional(),
  title: z.string().optional(),
  sessions: z
    .array(
      z.object({
        id: z.string().min(1).optional(),
        title: z.string().optional(),
        messages: z.array(looseMessage).min(1),
      }),
    )
    .min(1)
    .optional(),
  messages: z.array(looseMessage).min(1).optional(),
});

/** Reads and parses a conversation file. @throws ConversationFileError naming the file and what to fix. */
export async function loadConversation(file: string): Promise<Conversation> {
  let text: string;
  try {
    text = await readTextFile(file, MAX_CONVERSATION_BYTES);
  } catch (error) {
    if (!(error instanceof TextFileError)) throw error;
    const summary = error.unreadable
      ? `cannot read the conversation file (${error.message}).`
      : error.message;
    throw new ConversationFileError(file, summary, [], { cause: error });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConversationFileError(
      file,
      `is not valid JSON (${(error as Error).message}). Fix the syntax and try again.`,
      [],
      { cause: error },
    );
  }
  return parseConversation(json, file);
}

/**
 * Parses conversation JSON in any supported format: the project's `mem.conversation.v1` (with
 * `sessions`, or one session as `messages`), an OpenAI Chat Completions transcript (`{ messages }`
 * or a bare array) or an Anthropic Messages request (`{ system?, messages }`). Messages without
 * `id` or `createdAt` get deterministic ones. `source` names the input in errors.
 */
export function parseConversation(
  json: unknown,
  source: string,
  format: ConversationFormat | undefined = detectFormat(json),
): Conversation {
  if (format === undefined) {
    throw new ConversationFileError(
      source,
      'holds no conversation. Expected {"format":"mem.conversation.v1","sessions":[...]}, ' +
        '{"messages":[...]} (mem, OpenAI or Anthropic) or an array of OpenAI messages.',
    );
  }
  const title =
    typeof (json as { title?: unknown }).title === 'string'
      ? (json as { title: string }).title
      : basename(source, extname(source));
  const conversation =
    format === 'mem' ? fromMemFile(json, source, title) : fromWire(json, source, title, format);
  check(conversation, source);
  return conversation;
}

function fromMemFile(json: unknown, source: string, fallbackTitle: string): Conversation {
  const parsed = memFile.safeParse(json);
  if (!parsed.success) {
    throw new ConversationFileError(
      source,
      `is not a valid mem.conversation.v1 file (${parsed.error.issues.length} problem(s)); fix these paths:`,
      parsed.error.issues.map((i) => ({ path: formatPath(i.path), message: i.message })),
    );
  }
  const { sessions, messages } = parsed.data;
  if ((sessions === undefined) === (messages === undefined)) {
    throw new ConversationFileError(
      source,
      'needs exactly one of "sessions" (a list of {id, title, messages}) or "messages".',
    );
  }
  const title = parsed.data.title ?? fallbackTitle;
  const list = sessions ?? [{ id: 'session-1', title, messages: messages ?? [] }];
  return {
    title,
    sessions: list.map((s, i) => {
      const id = s.id ?? `session-${i + 1}`;
      return { id, title: s.title ?? id, messages: stamp(s.messages, id, i) };
    }),
  };
}

function stamp(messages: readonly LooseMessage[], sessionId: string, index: number): Message[] {
  let previous = DEFAULT_START + index * DAY - MINUTE;
  return messages.map((m, i) => {
    const createdAt = m.createdAt ?? previous + MINUTE;
    previous = createdAt;
    const id = m.id ?? `${sessionId}-m${String(i + 1).padStart(3, '0')}`;
    return { ...m, id, createdAt } as Message;
  });
}

function fromWire(
  json: unknown,
  source: string,
  title: string,
  format: 'openai' | 'anthropic',
): Conversation {
  let n = 0;
  let t = 0;
  const options = {
    generateId: () => `m${String(++n).padStart(4, '0')}`,
    now: () => DEFAULT_START + MINUTE * t++,
  };
  let messages: Message[];
  try {
    messages =
      format === 'openai'
        ? fromOpenAIMessages(
            (Array.isArray(json)
              ? json
              : (json as { messages: unknown }).messages) as OpenAIChatMessage[],
            options,
          )
        : fromAnthropicMessages(json as AnthropicInput, options);
  } catch (error) {
    if (!MemError.isInstance(error)) throw error;
    const name = format === 'openai' ? 'an OpenAI Chat Completions' : 'an Anthropic Messages';
    throw new ConversationFileError(
      source,
      `was read as ${name} transcript but is not valid: ${error.message.replace(/^\[mem\/core\] /, '')}`,
      [],
      { cause: error },
    );
  }
  return { title, sessions: [{ id: 'session-1', title, messages }] };
}

function check(conversation: Conversation, source: string): void {
  const issues: ConversationIssue[] = [];
  const seen = new Map<string, string>();
  let users = 0;
  conversation.sessions.forEach((s, i) => {
    s.messages.forEach((m, j) => {
      const path = `sessions[${i}].messages[${j}].id`;
      const first = seen.get(m.id);
      if (first !== undefined) {
        issues.push({ path, message: `duplicate id ${JSON.stringify(m.id)} (also ${first})` });
      } else seen.set(m.id, path);
      if (m.role === 'user') users++;
    });
  });
  if (issues.length > 0) {
    throw new ConversationFileError(
      source,
      'has duplicate message ids; ids must be unique across all sessions:',
      issues,
    );
  }
  if (users === 0) {
    throw new ConversationFileError(source, 'has no user message, so there is nothing to replay.');
  }
}

/** `a.b[0].c` from a zod issue path. */
function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out.length === 0 ? String(key) : `.${String(key)}`;
  }
  return out;
}
