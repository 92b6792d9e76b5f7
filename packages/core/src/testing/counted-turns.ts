import type { CountedMessage } from '../model/message.ts';
import { createTokenCounter, withTokenCount } from '../tokens/token-counter.ts';
import { generateConversation } from './generate-conversation.ts';

/** Words per message: about 400 bytes of JSON per counted message (~80 tokens). */
const WORDS: [number, number] = [35, 70];
const encoder = new TextEncoder();
const counter = createTokenCounter({ model: 'gpt-4o' });

/**
 * `interactions` turns of 4 counted messages each (user, assistant tool call, tool result,
 * assistant answer), from `generateConversation` with a tool call in every interaction.
 */
export function countedTurns(interactions: number, seed = 7): CountedMessage[][] {
  const all = generateConversation({ interactions, seed, words: WORDS });
  const turns: CountedMessage[][] = [];
  for (const m of all) {
    const counted = withTokenCount(m, counter);
    if (m.role === 'user') turns.push([counted]);
    else turns.at(-1)!.push(counted);
  }
  return turns;
}

/** Mean JSON bytes per message. */
export function meanJsonBytes(turns: readonly CountedMessage[][]): number {
  let bytes = 0;
  let n = 0;
  for (const turn of turns) {
    for (const m of turn) {
      bytes += encoder.encode(JSON.stringify(m)).length;
      n++;
    }
  }
  return bytes / Math.max(1, n);
}
