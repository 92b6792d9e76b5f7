import { now } from '@mem/bench-kit';
import { clearMergeCache, countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import type { Message } from '../src/model/message.ts';
import { generateConversation } from '../src/testing/generate-conversation.ts';
import { createTokenCounter } from '../src/tokens/token-counter.ts';

const PLAIN = { disallowedSpecial: new Set<string>() };

/** The texts gpt-tokenizer would have to count for a message: content, tool names, arguments. */
function texts(m: Message): string[] {
  const out = [typeof m.content === 'string' ? m.content : ''];
  for (const c of m.toolCalls ?? []) out.push(c.name, c.arguments);
  return out;
}

export interface TokenizeResult {
  messages: number;
  rawNsPerMessage: number;
  memNsPerMessage: number;
  ratio: number;
}

/**
 * First-time counting: mem's countMessage vs gpt-tokenizer's raw countTokens on the same texts.
 * Both sides count the same fresh conversation each round, each starting from an empty BPE
 * merge cache, and rounds alternate which side goes first.
 */
export function benchTokenize(rounds: number, perRound: number): TokenizeResult {
  const counter = createTokenCounter({ model: 'gpt-4o' });
  let raw = 0;
  let mem = 0;
  let total = 0;
  for (let r = 0; r < rounds; r++) {
    const forRaw = generateConversation({ interactions: perRound / 4, seed: 1000 + r });
    const forMem = forRaw;
    const runRaw = () => {
      clearMergeCache();
      const t0 = now();
      let sink = 0;
      for (const m of forRaw)
        for (const t of texts(m)) sink += t.length === 0 ? 0 : countTokens(t, PLAIN);
      raw += Number(now() - t0);
      return sink;
    };
    const runMem = () => {
      clearMergeCache();
      const t0 = now();
      let sink = 0;
      for (const m of forMem) sink += counter.countMessage(m);
      mem += Number(now() - t0);
      return sink;
    };
    if (r % 2 === 0) {
      runRaw();
      runMem();
    } else {
      runMem();
      runRaw();
    }
    total += forMem.length;
  }
  return {
    messages: total,
    rawNsPerMessage: raw / total,
    memNsPerMessage: mem / total,
    ratio: mem / raw,
  };
}
