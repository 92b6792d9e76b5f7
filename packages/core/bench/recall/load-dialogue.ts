import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { Message } from '../../src/model/message.ts';
import type { RecallDataset } from './recall-dataset.ts';

const MINUTE = 60_000;

const question = z.object({
  id: z.string().min(1),
  type: z.string().min(1),
  question: z.string().min(1),
  answer: z.union([z.string(), z.number()]).transform(String),
  evidence: z.array(z.string().min(1)).min(1),
});

const dialogueFile = z.object({
  format: z.literal('mem.recall.v1'),
  title: z.string(),
  speakers: z.tuple([z.string().min(1), z.string().min(1)]),
  sessions: z
    .array(
      z.object({
        id: z.string().min(1),
        date: z.iso.datetime({ offset: true }),
        turns: z.array(z.object({ id: z.string().min(1), speaker: z.string(), text: z.string() })),
      }),
    )
    .min(1),
  questions: z.array(question).min(1),
});

export type RecallQuestionInput = z.input<typeof question>;
export const questionList = z.array(question);

/**
 * A two-person dialogue (`mem.recall.v1`) as one engine session: the first speaker's turns are
 * `user` messages, the second's `assistant` messages, each with `name` = the speaker and
 * `id` = the turn id; turn i of a session is dated the session's date + i minutes.
 */
export async function loadDialogue(file: string, name: string): Promise<RecallDataset> {
  const parsed = dialogueFile.safeParse(JSON.parse(await readFile(file, 'utf8')));
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`[recall] ${file} is not a valid mem.recall.v1 file:\n${issues.join('\n')}`);
  }
  const { speakers, sessions, questions } = parsed.data;
  const messages: Message[] = [];
  const sessionOf: string[] = [];
  for (const session of sessions) {
    const start = Date.parse(session.date);
    session.turns.forEach((turn, i) => {
      if (!speakers.includes(turn.speaker)) {
        throw new Error(`[recall] ${file}: turn ${turn.id} is by ${turn.speaker}, not a speaker`);
      }
      messages.push({
        id: turn.id,
        role: turn.speaker === speakers[0] ? 'user' : 'assistant',
        name: turn.speaker,
        content: turn.text,
        createdAt: start + i * MINUTE,
      });
      sessionOf.push(session.id);
    });
  }
  return {
    name,
    external: false,
    conversations: [{ id: 'dialogue', messages, sessions: sessionOf, questions }],
    skipped: {},
  };
}
