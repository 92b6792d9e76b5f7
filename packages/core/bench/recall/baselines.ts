import type { CountedMessage, Message } from '../../src/model/message.ts';
import { messageText } from '../../src/model/message.ts';
import type { TokenCounter } from '../../src/tokens/token-counter.ts';
import { withTokenCount } from '../../src/tokens/token-counter.ts';
import { Bm25Index } from './bm25.ts';

/** A prompt a baseline would send: chosen turns, then the question. */
export interface PackedContext {
  messages: Message[];
  tokenCount: number;
}

/** What a baseline searches in a message: its text and the tool calls it makes. */
function searchableText(m: Message): string {
  const calls = (m.toolCalls ?? []).map((c) => `${c.name} ${c.arguments}`);
  return [messageText(m), ...calls].join('\n');
}

/**
 * The two baselines over one conversation, each given the same budget as mem and counted with
 * core's token counter (chat overhead and reply priming included):
 * - recency: the newest turns that fit, walking back until the next one does not;
 * - BM25: the turns ranked by plain BM25 for the question, packed in rank order until the next
 *   one does not fit (turns sharing no word with the question are never packed).
 */
export class Baselines {
  private readonly turns: CountedMessage[];
  private readonly index: Bm25Index;

  constructor(
    messages: readonly Message[],
    private readonly counter: TokenCounter,
  ) {
    this.turns = messages.map((m) => withTokenCount(m, counter));
    this.index = new Bm25Index(this.turns.map(searchableText));
  }

  private question(text: string): CountedMessage {
    return withTokenCount(
      { id: 'question', role: 'user', content: text, createdAt: 0 },
      this.counter,
    );
  }

  recency(question: string, budget: number): PackedContext {
    const q = this.question(question);
    let tokens = this.counter.replyPrimingTokens + q.tokenCount;
    let first = this.turns.length;
    while (first > 0 && tokens + this.turns[first - 1]!.tokenCount <= budget) {
      first--;
      tokens += this.turns[first]!.tokenCount;
    }
    return { messages: [...this.turns.slice(first), q], tokenCount: tokens };
  }

  bm25(question: string, budget: number): PackedContext {
    const q = this.question(question);
    let tokens = this.counter.replyPrimingTokens + q.tokenCount;
    const chosen: number[] = [];
    for (const hit of this.index.search(question)) {
      const cost = this.turns[hit.doc]!.tokenCount;
      if (tokens + cost > budget) break;
      tokens += cost;
      chosen.push(hit.doc);
    }
    chosen.sort((x, y) => x - y);
    return { messages: [...chosen.map((i) => this.turns[i]!), q], tokenCount: tokens };
  }

  /** Ids of the `k` best BM25 turns for the question. */
  bm25Top(question: string, k: number): string[] {
    return this.index.search(question, k).map((hit) => this.turns[hit.doc]!.id);
  }
}
