import type { FactExtractorInput } from '@mem/core';
import { messageText } from '@mem/core/summarize';

/** Characters of a tool call's arguments or a tool's result shown in the prompt. */
const TOOL_TEXT_CHARS = 200;

/**
 * The system prompt of the LLM fact extractor: what a durable fact of the user is, what is not
 * one, the three operations and the reply format. `maxOperations` caps the operations asked for.
 */
export function factSystemPrompt(maxOperations: number): string {
  return `You keep a short list of durable facts about one person: the USER of a chat assistant. You read the user's facts as they stand and one finished exchange between the user and the assistant, and you answer with the changes to make to the facts, as JSON.

A fact is worth keeping when it will still be true and useful in a later, unrelated conversation: who the user is (name, age, family, pets), where they live, their work and studies, lasting preferences and dislikes, habits, goals, constraints (allergies, diet, accessibility, budget), important plans and events of their life, and anything they explicitly ask to be remembered.

Do not record:
- the assistant, or anything the assistant said, suggested or did;
- other people, unless it is about the user's life ("Their sister Ana lives in Rome" is about the user);
- one-off requests, questions and tasks of this exchange ("Wants a poem about cats", "Asked for the weather");
- guesses: only what the user said or clearly confirmed;
- secrets: passwords, API keys, card or account numbers.

Operations:
- {"op": "add", "text": "...", "about": "...", "source": [1]}: a new fact.
- {"op": "update", "id": "...", "text": "...", "about": "...", "source": [3]}: the exchange changes or refines one of the user's facts (they moved, changed jobs, corrected it). Use the fact's id exactly as given.
- {"op": "delete", "id": "..."}: the user says one of their facts is wrong or no longer true and nothing replaces it, or asks to forget it.

Rules for every fact:
- One short sentence in the third person about the user, without naming them "the user": "Lives in Lisbon.", "Is allergic to peanuts.", "Prefers answers in German.".
- Keep the user's language: write each fact in the language the user writes in; never translate it into English.
- Dates: turn relative times ("next month", "yesterday") into dates, using today's date.
- "about" (optional): a short lowercase key of what the fact is about (name, location, employer, diet, preference:coffee), so that a later fact about the same thing replaces it.
- "source": the numbers [n] of the messages the fact comes from.

At most ${maxOperations} operations, the most durable first. When the exchange holds nothing durable about the user, which is common, answer {"operations": []}.

Reply with one JSON object: {"operations": [...]}.`;
}

/** A prompt for one extraction, and the message id behind each number `[n]` it shows. */
export interface FactPrompt {
  prompt: string;
  /** `messageIds[n - 1]` is the id of the message numbered `[n]`. */
  messageIds: string[];
}

export interface FactPromptOptions {
  maxOperations: number;
  /** Characters of each user or assistant message shown; longer ones are cut with `…`. */
  maxCharsPerMessage: number;
}

function cut(text: string, max: number): string {
  const flat = text.trim();
  if (flat.length <= max) return flat;
  const end = /[\uD800-\uDBFF]/.test(flat.charAt(max - 1)) ? max - 1 : max;
  return `${flat.slice(0, end)}…`;
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ');

/** The lines of one message, or none when it tells nothing (a system message, empty text). */
function messageLines(
  message: FactExtractorInput['messages'][number],
  maxChars: number,
): string | undefined {
  const text = messageText(message);
  switch (message.role) {
    case 'user':
      return text.trim() === '' ? undefined : `user: ${cut(text, maxChars)}`;
    case 'assistant': {
      const parts: string[] = [];
      if (text.trim() !== '') parts.push(cut(text, maxChars));
      for (const call of message.toolCalls ?? []) {
        parts.push(`(calls tool ${call.name} ${oneLine(cut(call.arguments, TOOL_TEXT_CHARS))})`);
      }
      return parts.length === 0 ? undefined : `assistant: ${parts.join(' ')}`;
    }
    case 'tool': {
      const what = message.isError === true ? 'error' : 'result';
      return `tool ${message.toolName ?? ''} ${what}: ${oneLine(cut(text, TOOL_TEXT_CHARS))}`;
    }
    default:
      return undefined;
  }
}

/**
 * The user prompt: today's date, the user's facts (id, about, text) and the exchange with each
 * message numbered `[n]` (user and assistant text, tool calls and results in brief; system
 * messages left out), so `source` numbers map back to message ids.
 */
export function factPrompt(input: FactExtractorInput, options: FactPromptOptions): FactPrompt {
  const facts =
    input.facts.length === 0
      ? '(none yet)'
      : input.facts
          .map((f) =>
            JSON.stringify(
              f.about === undefined
                ? { id: f.id, text: f.text }
                : {
                    id: f.id,
                    about: f.about,
                    text: f.text,
                  },
            ),
          )
          .join('\n');
  const messageIds: string[] = [];
  const lines: string[] = [];
  for (const message of input.messages) {
    const line = messageLines(message, options.maxCharsPerMessage);
    if (line === undefined) continue;
    messageIds.push(message.id);
    lines.push(`[${messageIds.length}] ${line}`);
  }
  const today = new Date(input.now).toISOString().slice(0, 10);
  const prompt = `Today is ${today}.

The user's facts now (one JSON object per line):
${facts}

The exchange:
${lines.join('\n')}

Answer with at most ${options.maxOperations} operations on the user's facts, as {"operations": [...]}.`;
  return { prompt, messageIds };
}
