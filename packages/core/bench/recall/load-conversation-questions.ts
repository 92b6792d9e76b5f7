import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import type { Message } from '../../src/model/message.ts';
import { messageSchema } from '../../src/model/message-schema.ts';
import { questionList } from './load-dialogue.ts';
import type { RecallDataset } from './recall-dataset.ts';

const conversationFile = z.object({
  format: z.literal('mem.conversation.v1'),
  sessions: z.array(z.object({ id: z.string(), messages: z.array(messageSchema) })).min(1),
});

const questionsFile = z.object({
  format: z.literal('mem.recall.questions.v1'),
  /** The conversation the questions are about, relative to the questions file. */
  conversation: z.string().min(1),
  questions: questionList,
});

/**
 * Questions about a `mem.conversation.v1` file (the bundled support desk: messages already carry
 * ids, roles, tool calls and createdAt), which is replayed as stored into one engine session.
 * Read directly: the playground's loader would pull the app in.
 */
export async function loadConversationQuestions(
  questionsPath: string,
  name: string,
): Promise<RecallDataset> {
  const { conversation: relative, questions } = questionsFile.parse(
    JSON.parse(await readFile(questionsPath, 'utf8')),
  );
  const conversationPath = resolve(dirname(questionsPath), relative);
  const conversation = conversationFile.parse(JSON.parse(await readFile(conversationPath, 'utf8')));
  const messages: Message[] = conversation.sessions.flatMap((s) => s.messages as Message[]);
  const sessions = conversation.sessions.flatMap((s) => s.messages.map(() => s.id));
  return {
    name,
    external: false,
    conversations: [{ id: 'conversation', messages, sessions, questions }],
    skipped: {},
  };
}
