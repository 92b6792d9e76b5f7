import type { Message } from '../../model/message.ts';
import { generateConversation } from '../../testing/generate-conversation.ts';
import type { MemoryEngine } from '../memory-engine.ts';
import type { MemoryContext } from '../memory-session.ts';

/** Splits a flat conversation into turns (a user message and what follows it). */
export function turnsOf(messages: readonly Message[]): Message[][] {
  const turns: Message[][] = [];
  for (const m of messages) {
    if (m.role === 'user' || turns.length === 0) turns.push([m]);
    else turns.at(-1)!.push(m);
  }
  return turns;
}

/** 200 interactions with tool calls and ~15% failing tools, deterministic. */
export function conversation200(seed = 3): Message[] {
  return generateConversation({ interactions: 200, seed, errorRate: 0.15 });
}

/**
 * Plays a conversation the way an agent loop does: append the user message, build the context
 * for the LLM call, append the replies with the usage the provider reported, and let the
 * long-term strategies settle before the next turn. Returns every context built.
 */
export async function replay(
  engine: MemoryEngine,
  sessionId: string,
  messages: readonly Message[],
  options: { settle?: boolean } = {},
): Promise<MemoryContext[]> {
  const session = engine.session(sessionId);
  const contexts: MemoryContext[] = [];
  for (const [user, ...replies] of turnsOf(messages)) {
    await session.append(user!);
    const context = await session.context();
    contexts.push(context);
    if (replies.length > 0) {
      await session.append(replies, {
        usage: { inputTokens: context.tokenCount, outputTokens: 50 },
      });
    }
    if (options.settle !== false) await session.idle();
  }
  return contexts;
}
