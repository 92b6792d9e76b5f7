import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Message } from '../../src/model/message.ts';
import type { RecallConversation, RecallDataset, RecallQuestion } from './recall-dataset.ts';

const MINUTE = 60_000;
const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
/** LoCoMo's categories; 5 (adversarial, no answer in the dialogue) is left out. */
const TYPES: Record<number, string> = {
  1: 'multi-hop',
  2: 'temporal',
  3: 'inference',
  4: 'single',
};

interface LocomoTurn {
  speaker: string;
  dia_id: string;
  text: string;
}
interface LocomoQa {
  question: string;
  answer?: unknown;
  evidence?: unknown;
  category: number;
}

/** "1:56 pm on 8 May, 2023" as ms since the epoch (read as UTC). */
export function parseLocomoDate(text: string): number {
  const m = /^(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([a-z]+),?\s+(\d{4})$/i.exec(
    text.trim(),
  );
  const month = m === null ? -1 : MONTHS.indexOf(m[5]!.toLowerCase());
  if (m === null || month < 0)
    throw new Error(`[recall] unreadable LoCoMo date ${JSON.stringify(text)}`);
  const hour = (Number(m[1]) % 12) + (m[3]!.toLowerCase() === 'pm' ? 12 : 0);
  return Date.UTC(Number(m[6]), month, Number(m[4]), hour, Number(m[2]));
}

/**
 * LoCoMo (Maharana et al. 2024) from a directory of its conversation files, each replayed as one
 * engine session: `speaker_a` is the user, `speaker_b` the assistant; only the turns' text is
 * used (not image captions). Evidence ids that name no turn are dropped; a question left without
 * evidence is skipped, as is category 5.
 */
export async function loadLocomo(dir: string): Promise<RecallDataset> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.json')).sort();
  if (files.length === 0) throw new Error(`[recall] no LoCoMo .json files in ${dir}`);
  const skipped: Record<string, number> = {};
  const skip = (reason: string) => {
    skipped[reason] = (skipped[reason] ?? 0) + 1;
  };
  const conversations: RecallConversation[] = [];
  for (const file of files) {
    const data = JSON.parse(await readFile(join(dir, file), 'utf8')) as Record<string, unknown>;
    const name = file.replace(/\.json$/, '');
    const a = data.speaker_a as string;
    const messages: Message[] = [];
    const sessionOf: string[] = [];
    const sessionNumbers = Object.keys(data)
      .flatMap((k) => /^session_(\d+)$/.exec(k)?.[1] ?? [])
      .map(Number)
      .sort((x, y) => x - y);
    for (const n of sessionNumbers) {
      const turns = data[`session_${n}`] as LocomoTurn[];
      const start = parseLocomoDate(data[`session_${n}_date_time`] as string);
      turns.forEach((turn, i) => {
        messages.push({
          id: turn.dia_id,
          role: turn.speaker === a ? 'user' : 'assistant',
          name: turn.speaker,
          content: turn.text,
          createdAt: start + i * MINUTE,
        });
        sessionOf.push(`session_${n}`);
      });
    }
    const ids = new Set(messages.filter((m) => m.content !== '').map((m) => m.id));
    const questions: RecallQuestion[] = [];
    for (const [i, qa] of (data.qa as LocomoQa[]).entries()) {
      const type = TYPES[qa.category];
      if (type === undefined) {
        skip(`category ${qa.category}`);
        continue;
      }
      const cited = (Array.isArray(qa.evidence) ? qa.evidence : [])
        .flatMap((e) => String(e).split(/[;,\s]+/))
        .filter((e) => e.length > 0);
      const evidence = [...new Set(cited.filter((e) => ids.has(e)))];
      if (evidence.length < cited.length) skip('evidence ids naming no turn (dropped)');
      if (evidence.length === 0) {
        skip('no usable evidence');
        continue;
      }
      questions.push({
        id: `${name}-q${i + 1}`,
        type,
        question: qa.question,
        answer: String(qa.answer),
        evidence,
      });
    }
    conversations.push({ id: `locomo-${name}`, messages, sessions: sessionOf, questions });
  }
  return { name: 'LoCoMo (external)', external: true, conversations, skipped };
}
