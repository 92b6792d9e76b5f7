import { now, type BenchSummary as Summary, summarizeSamples } from '@mem/bench-kit';
import { InteractionLog } from '../src/model/interaction-log.ts';
import type { CountedMessage, Message } from '../src/model/message.ts';
import { createMaxTokensStrategy } from '../src/strategies/short-term/max-tokens-strategy.ts';
import { selectionMessages } from '../src/strategies/short-term/short-term-strategy.ts';
import { generateConversation } from '../src/testing/generate-conversation.ts';
import { createTokenCounter, withTokenCount } from '../src/tokens/token-counter.ts';

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

/** A session of `history` interactions with `turns` more waiting to be appended. */
export class WindowRun {
  private readonly log: InteractionLog;
  private readonly strategy = createMaxTokensStrategy({ maxTokens: BUDGET, counter });
  private readonly next: Message[][];
  private readonly select: number[] = [];
  private readonly countAndSelect: number[] = [];
  private windowMessages = 0;

  constructor(
    readonly interactions: number,
    turns: number,
  ) {
    const { past, next } = conversationFor(interactions, turns);
    this.log = new InteractionLog(past.map((m) => withTokenCount(m, counter)));
    this.next = next;
    this.strategy.select(this.log);
  }

  /** Measures `count` turns: pre-counted ones, then as many counted inside the timer. */
  measure(count: number): void {
    for (let i = 0; i < count; i++) {
      const turn = this.next.shift()!.map((m) => withTokenCount(m, counter));
      const t0 = now();
      for (const m of turn) this.log.append(m);
      const prompt = selectionMessages(this.strategy.select(this.log));
      this.select.push(Number(now() - t0));
      this.windowMessages = prompt.length;
    }
    for (let i = 0; i < count; i++) {
      const turn = this.next.shift()!;
      const t0 = now();
      for (const m of turn) this.log.append(withTokenCount(m, counter) as CountedMessage);
      selectionMessages(this.strategy.select(this.log));
      this.countAndSelect.push(Number(now() - t0));
    }
  }

  result(): WindowResult {
    return {
      interactions: this.interactions,
      select: summarizeSamples(this.select),
      countAndSelect: summarizeSamples(this.countAndSelect),
      windowMessages: this.windowMessages,
    };
  }
}

/**
 * mem: append one interaction, then choose the next prompt with a 4,000-token max_tokens window.
 * Sizes are measured in interleaved rounds so drift (GC, CPU frequency, other load) hits all
 * sizes alike.
 */
export function benchWindows(sizes: readonly number[], turns: number, rounds = 4): WindowResult[] {
  const runs = sizes.map((n) => new WindowRun(n, turns * 2));
  const perRound = Math.ceil(turns / rounds);
  for (let r = 0; r < rounds; r++) for (const run of runs) run.measure(perRound);
  return runs.map((run) => run.result());
}
