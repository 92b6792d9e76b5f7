import { isSummaryMessage, type Message, messageText } from '../../../model/message.ts';

/** The user message and assistant reply of turn `i`, distinct and easy to recognise. */
export function turn(i: number): [string, string] {
  return [
    `Question ${i}: which city did traveller number ${i} visit?`,
    `Answer ${i}: traveller ${i} visited City${i} and stayed ${i + 2} nights.`,
  ];
}

/** A gate a test opens by hand: `opened` resolves once `open()` is called. */
export function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/** The user texts of the turns among `messages`, oldest first. */
export function userTexts(messages: readonly Message[]): string[] {
  return messages.filter((m) => m.role === 'user').map(messageText);
}

/** Turn numbers of the user messages among `messages`, oldest first. */
export function turnNumbers(messages: readonly Message[]): number[] {
  return userTexts(messages).map((t) => Number(/^Question (\d+)/.exec(t)?.[1]));
}

export const range = (from: number, to: number): number[] =>
  Array.from({ length: to - from + 1 }, (_, k) => from + k);

export function summaries(messages: readonly Message[]): Message[] {
  return messages.filter(isSummaryMessage);
}

/** Resolves `'settled'` when `work` settles within `ms`, else `'blocked'`. */
export async function settlesWithin(
  work: Promise<unknown>,
  ms: number,
): Promise<'settled' | 'blocked'> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const blocked = new Promise<'blocked'>((resolve) => {
    timer = setTimeout(() => resolve('blocked'), ms);
  });
  try {
    return await Promise.race([work.then(() => 'settled' as const), blocked]);
  } finally {
    clearTimeout(timer);
  }
}
