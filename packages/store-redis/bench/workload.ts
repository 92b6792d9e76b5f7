import { type CountedMessage, createTokenCounter, withTokenCount } from '@mem/core';
import { generateConversation } from '@mem/core/testing';

/** Words per message: about 400 bytes of JSON per counted message (~80 tokens). */
const WORDS: [number, number] = [35, 70];
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
      bytes += Buffer.byteLength(JSON.stringify(m));
      n++;
    }
  }
  return bytes / Math.max(1, n);
}
