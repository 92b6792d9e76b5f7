import type { Interaction } from './interaction.ts';
import type { CountedMessage, Message } from './message.ts';

/**
 * Lists why `messages` would be rejected as a prompt (empty when valid). The invariant:
 * - every tool result has its call earlier in the prompt, and every call has its result;
 * - the first message after the system messages is a user message, or the conversation's
 *   opening (the assistant messages before its first user message, with their tool results)
 *   when the window kept it. An opening is shown only at the start, never in the middle.
 *
 * Given `conversation` (the active messages the prompt was chosen from), every message before
 * the prompt's first user message must belong to that conversation's opening: a later turn shown
 * without its user message is a problem. Without it, such messages must start with an assistant
 * one.
 */
export function promptProblems(
  messages: readonly Message[],
  conversation?: readonly Message[],
): string[] {
  const problems: string[] = [];
  const pending = new Map<string, number>();
  const answered = new Set<string>();
  let i = 0;
  while (i < messages.length && messages[i]?.role === 'system') i++;
  const first = messages[i];
  if (first !== undefined && first.role !== 'user' && first.role !== 'assistant') {
    problems.push(
      `messages[${i}] is a ${first.role} message; the first after system must be a user message or the conversation's opening assistant message`,
    );
  }
  const opening = conversation === undefined ? undefined : openingIds(conversation);
  let seenUser = false;
  for (; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role === 'system') continue;
    if (m.role === 'user') seenUser = true;
    else if (!seenUser && opening !== undefined && !opening.has(m.id)) {
      problems.push(
        `messages[${i}] (${m.role}) comes before the first user message but is not part of the conversation's opening`,
      );
    }
    if (m.role === 'assistant' && m.toolCalls) {
      for (const call of m.toolCalls) pending.set(call.id, i);
    }
    if (m.role === 'tool') {
      const id = m.toolCallId ?? '';
      if (!pending.has(id) || answered.has(id)) {
        problems.push(
          `messages[${i}] answers tool call ${JSON.stringify(id)} with no call before it`,
        );
      } else answered.add(id);
    }
  }
  for (const [id, at] of pending) {
    if (!answered.has(id))
      problems.push(`messages[${at}] calls tool ${JSON.stringify(id)} with no result`);
  }
  return problems;
}

/** Ids of a conversation's opening: its non-system messages before the first user message. */
function openingIds(conversation: readonly Message[]): Set<string> {
  const ids = new Set<string>();
  for (const m of conversation) {
    if (m.role === 'user') break;
    if (m.role !== 'system') ids.add(m.id);
  }
  return ids;
}

/** True when `promptProblems(messages, conversation)` is empty. */
export function isValidPrompt(
  messages: readonly Message[],
  conversation?: readonly Message[],
): boolean {
  return promptProblems(messages, conversation).length === 0;
}

/**
 * Makes one interaction safe to send: drops tool results whose call is not earlier in the
 * turn (and repeats), strips calls that got no result, and drops assistant messages left with
 * neither text nor calls (an opening interaction is sanitized the same way). Returns the
 * interaction itself when nothing had to change.
 * `recount` prices a message whose tool calls were stripped.
 */
export function sanitizeInteraction(
  interaction: Interaction,
  recount: (message: Message) => number,
): Interaction {
  const messages = interaction.messages;
  const called = new Set<string>();
  const answered = new Set<string>();
  let dirty = false;
  for (const m of messages) {
    if (m.role === 'assistant' && m.toolCalls) for (const c of m.toolCalls) called.add(c.id);
    else if (m.role === 'tool') {
      const id = m.toolCallId ?? '';
      if (called.has(id) && !answered.has(id)) answered.add(id);
      else dirty = true;
    }
  }
  if (!dirty) {
    for (const id of called) if (!answered.has(id)) dirty = true;
  }
  if (!dirty) return interaction;

  const kept: CountedMessage[] = [];
  const seen = new Set<string>();
  const callSeen = new Set<string>();
  for (const m of messages) {
    if (m.role === 'tool') {
      const id = m.toolCallId ?? '';
      if (!callSeen.has(id) || seen.has(id)) continue;
      seen.add(id);
      kept.push(m);
      continue;
    }
    if (m.role === 'assistant' && m.toolCalls) {
      const calls = m.toolCalls.filter((c) => answered.has(c.id) && !callSeen.has(c.id));
      for (const c of calls) callSeen.add(c.id);
      if (calls.length === m.toolCalls.length) {
        kept.push(m);
        continue;
      }
      const { toolCalls: _dropped, tokenCount: _stale, ...rest } = m;
      const stripped: Message = calls.length > 0 ? { ...rest, toolCalls: calls } : rest;
      if (calls.length === 0 && isEmptyContent(stripped)) continue;
      kept.push({ ...stripped, tokenCount: recount(stripped) });
      continue;
    }
    kept.push(m);
  }
  return rebuild(interaction, kept);
}

function isEmptyContent(message: Message): boolean {
  return typeof message.content === 'string'
    ? message.content.length === 0
    : message.content.length === 0;
}

/** An interaction with a different message list, stats recomputed. */
export function rebuild(
  interaction: Interaction,
  messages: readonly CountedMessage[],
): Interaction {
  let tokenCount = 0;
  for (const m of messages) tokenCount += m.tokenCount;
  return {
    index: interaction.index,
    messages,
    tokenCount,
    toolNames: interaction.toolNames,
    hasError: interaction.hasError,
  };
}
