import { fileURLToPath } from 'node:url';
import { generateConversation } from '@mem/core/testing';
import { loadConversation } from '../conversation/load-conversation.ts';
import type { Conversation } from '../replay/replay-types.ts';
import type { SessionRange } from './contract.ts';

/** The bundled multi-session conversation with tool calls (core's example). */
export const BUNDLED_CONVERSATION = fileURLToPath(
  new URL('../../../../packages/core/examples/support-desk.conversation.json', import.meta.url),
);

export function sessionRanges(conversation: Conversation): SessionRange[] {
  let turn = 0;
  return conversation.sessions.map((s) => {
    const users = s.messages.filter((m) => m.role === 'user').length;
    const range = { id: s.id, title: s.title, firstTurn: turn, lastTurn: turn + users - 1 };
    turn += users;
    return range;
  });
}

/** A generated conversation of `turns` interactions (seed 1) as one session. */
export function generatedConversation(turns: number): Conversation {
  const title = `Generated conversation, ${turns.toLocaleString('en-US')} interactions (seed 1)`;
  const messages = generateConversation({ interactions: turns, seed: 1 });
  return { title, sessions: [{ id: 'generated', title, messages }] };
}

/** Loads each conversation once; keeps the last generated one. */
export function createConversationCache() {
  let bundled: Promise<Conversation> | undefined;
  let generated: { turns: number; conversation: Conversation } | undefined;
  return {
    bundled(): Promise<Conversation> {
      bundled ??= loadConversation(BUNDLED_CONVERSATION);
      bundled.catch(() => {
        bundled = undefined;
      });
      return bundled;
    },
    generated(turns: number): Conversation {
      if (generated?.turns !== turns) {
        generated = { turns, conversation: generatedConversation(turns) };
      }
      return generated.conversation;
    },
  };
}
