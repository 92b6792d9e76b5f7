import { MemValidationError } from '../errors/errors.ts';
import type { Interaction } from '../model/interaction.ts';
import { InteractionLog } from '../model/interaction-log.ts';
import type { CountedMessage } from '../model/message.ts';
import type { EngineContext } from './engine-context.ts';
import { countedFromInput, type MessageInput } from './message-input.ts';

/** `context({ next })`'s messages, checked and counted like appended ones; never stored. */
export function countNext(
  ctx: EngineContext,
  next: MessageInput | MessageInput[] | undefined,
): CountedMessage[] {
  if (next === undefined) return [];
  const list: unknown[] = Array.isArray(next) ? next : [next];
  const defaults = { newId: ctx.newId, now: ctx.now() };
  return list.map((m, i) => {
    const message = countedFromInput(m, i, defaults, ctx.counter);
    if (message.role === 'system') {
      throw new MemValidationError(
        `next[${i}].role`,
        `[mem/core] next[${i}] is a system message; context({ next }) takes the user, assistant and tool messages the call ends with. Append system prompts instead.`,
      );
    }
    return message;
  });
}

/**
 * The interactions with `next` added at the end: a user message opens a new interaction, other
 * messages join the newest one (a copy: the session's own interactions are not changed).
 */
export function withNext(
  interactions: readonly Interaction[],
  next: readonly CountedMessage[],
): readonly Interaction[] {
  if (next.length === 0) return interactions;
  const last = interactions.at(-1);
  const joinsLast = next[0]!.role !== 'user' && last !== undefined;
  const firstIndex = joinsLast ? last.index : (last?.index ?? -1) + 1;
  const log = new InteractionLog<CountedMessage>([], firstIndex);
  log.appendAll(joinsLast ? [...last.messages, ...next] : next);
  const head = joinsLast ? interactions.slice(0, -1) : interactions;
  return [...head, ...log.interactions];
}
