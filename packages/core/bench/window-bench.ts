import { InteractionLog } from '../src/model/interaction-log.ts';
import type { CountedMessage, Message } from '../src/model/message.ts';
import { createMaxTokensStrategy } from '../src/strategies/short-term/max-tokens-strategy.ts';
import { selectionMessages } from '../src/strategies/short-term/short-term-strategy.ts';
import { generateConversation } from '../src/testing/generate-conversation.ts';
import { createTokenCounter, withTokenCount } from '../src/tokens/token-counter.ts';
import { now, type Summary, summarize } from './stats.ts';

export const BUDGET = 4000;
export const counter = createTokenCounter({ model: 'gpt-4o' });

/** A conversation of `history` turns plus `turns` more to append, 4 messages per turn. */
export function conversationFor(
  history: number,
  turns: number,
): { past: Message[]; next: Message[][] } {
  const all = generateConversation({ interactions: history + turns, seed: 7 });
  const past = all.slice(0, history * 4);
  const next: Message[][] = [];
  for (let t = 0; t < turns; t++) next.push(all.slice((history + t) * 4, (history + t + 1) * 4));
  return { past, next };
}

export interface WindowResult {
  interactions: number;
  /** Append one interaction (already counted) and choose the next prompt. */
  select: Summary;
  /** Same, with counting the new interaction's tokens included. */
  countAndSelect: Summary;
  windowMessages: number;
}

/** mem: append one interaction, then choose the next prompt with a 4,000-token max_tokens window. */
export function benchWindow(history: number, turns: number): WindowResult {
  const { past, next } = conversationFor(history, turns * 2);
  const log = new InteractionLog(past.map((m) => withTokenCount(m, counter)));
  const strategy = createMaxTokensStrategy({ maxTokens: BUDGET, counter });
  strategy.select(log);

  const counted = next.slice(0, turns).map((turn) => turn.map((m) => withTokenCount(m, counter)));
  const select: number[] = [];
  let windowMessages = 0;
  for (const turn of counted) {
    const t0 = now();
    for (const m of turn) log.append(m);
    const prompt = selectionMessages(strategy.select(log));
    select.push(Number(now() - t0));
    windowMessages = prompt.length;
  }
  const countAndSelect: number[] = [];
  for (const turn of next.slice(turns)) {
    const t0 = now();
    for (const m of turn) log.append(withTokenCount(m, counter) as CountedMessage);
    selectionMessages(strategy.select(log));
    countAndSelect.push(Number(now() - t0));
  }
  return {
    interactions: history,
    select: summarize(select),
    countAndSelect: summarize(countAndSelect),
    windowMessages,
  };
}
