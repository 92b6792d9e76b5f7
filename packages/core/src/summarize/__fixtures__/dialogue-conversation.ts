import type { Message } from '../../model/message.ts';

const start = Date.UTC(2025, 4, 3, 18);

/** Two people chatting: `user` Lena and `assistant` Tom, by name, as dialogue datasets have it. */
export function dialogue(turns: readonly (readonly [string, string])[], offset = 0): Message[] {
  return turns.map(([speaker, content], i) => ({
    id: `d${offset + i}`,
    role: speaker === 'Lena' ? 'user' : 'assistant',
    name: speaker,
    content,
    createdAt: start + (offset + i) * 60_000,
  }));
}

/** Facts (a move, a job, a plan, preferences, an adoption, a place and a time) buried in chit-chat. */
export const LENA_AND_TOM: readonly (readonly [string, string])[] = [
  ['Lena', 'Hey Tom! How are you?'],
  ['Tom', "Haha, good! Can't wait for the weekend."],
  ['Lena', 'I moved to Porto in March and started a new job at a design studio.'],
  ['Tom', 'Wow, congrats, Lena!'],
  ['Lena', "Next Saturday we're driving to Braga with my sister Ana."],
  ['Tom', 'Sounds great.'],
  ['Tom', "I can't stand long drives, but I love the old town of Braga."],
  ['Lena', 'Agreed.'],
  ['Tom', 'My favourite café there is Casa Sá, it opens at 8:30.'],
  ['Lena', 'Haha'],
  ['Tom', 'We adopted a dog called Biscuit last week!'],
  ['Lena', "Can't wait!"],
  ['Tom', 'That sounds amazing, I am so happy for you!'],
  ['Lena', 'Totally agree, Tom.'],
  ['Tom', 'Talk soon, take care!'],
];

/** What the summary of `LENA_AND_TOM` must keep. */
export const LENA_AND_TOM_FACTS = [
  '- Lena: I moved to Porto in March and started a new job at a design studio.',
  "- Lena: Next Saturday we're driving to Braga with my sister Ana.",
  "- Tom: I can't stand long drives, but I love the old town of Braga.",
  '- Tom: My favourite café there is Casa Sá, it opens at 8:30.',
  '- Tom: We adopted a dog called Biscuit last week!',
];

/** Greetings, reactions and filler of `LENA_AND_TOM`: none may reach the key points. */
export const LENA_AND_TOM_CHIT_CHAT = [
  'How are you',
  "Can't wait",
  'congrats',
  'Sounds great',
  'Agreed',
  'Haha',
  'so happy for you',
  'Totally agree',
  'Talk soon',
];
