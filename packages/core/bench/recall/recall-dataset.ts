import type { Message } from '../../src/model/message.ts';
import { messageText } from '../../src/model/message.ts';

/**
 * What the recall benchmark replays and asks, whatever the source: conversations (each one
 * session of the engine) whose messages carry ids, and questions whose answers sit in some of
 * those messages (`evidence`: message ids as replayed).
 */
export interface RecallQuestion {
  id: string;
  /** `single`, `multi-hop`, `temporal`, `preference`, `inference`, ... (reported per type). */
  type: string;
  question: string;
  answer: string;
  evidence: string[];
}

export interface RecallConversation {
  id: string;
  /** In replay order, with ids, roles and createdAt. */
  messages: Message[];
  /**
   * The source's session of each message (same order as `messages`): the cross-session mode
   * stores each one as its own engine session of one user.
   */
  sessions: string[];
  questions: RecallQuestion[];
}

export interface RecallDataset {
  name: string;
  /** Data from outside the repository (reported, never committed). */
  external: boolean;
  conversations: RecallConversation[];
  /** Questions left out while loading, and why (e.g. evidence ids that name no turn). */
  skipped: Record<string, number>;
}

/** Every question's evidence names a message of its conversation that has text. */
export function checkEvidence(dataset: RecallDataset): void {
  for (const conversation of dataset.conversations) {
    const byId = new Map(conversation.messages.map((m) => [m.id, m]));
    for (const q of conversation.questions) {
      if (q.evidence.length === 0) {
        throw new Error(`[recall] ${dataset.name}: question ${q.id} has no evidence`);
      }
      for (const id of q.evidence) {
        const m = byId.get(id);
        if (m === undefined || messageText(m).trim().length === 0) {
          throw new Error(
            `[recall] ${dataset.name}: question ${q.id} cites ${JSON.stringify(id)}, which is not a message with text in ${conversation.id}`,
          );
        }
      }
    }
  }
}

export function countQuestions(dataset: RecallDataset): { questions: number; pairs: number } {
  let questions = 0;
  let pairs = 0;
  for (const c of dataset.conversations) {
    questions += c.questions.length;
    for (const q of c.questions) pairs += q.evidence.length;
  }
  return { questions, pairs };
}
