import { median, now } from '@mem/bench-kit';
import cl100k from 'gpt-tokenizer/encoding/cl100k_base';
import o200k from 'gpt-tokenizer/encoding/o200k_base';
import { generateConversation } from '../src/testing.ts';
import {
  PATHOLOGICAL_KINDS,
  pathologicalText,
} from '../src/tokens/__fixtures__/pathological-texts.ts';
import { createTokenCounter, type TokenEncoding } from '../src/tokens/token-counter.ts';

const MB = 1_000_000;
const PLAIN = { disallowedSpecial: new Set<string>() };
const apis = { o200k_base: o200k, cl100k_base: cl100k } as const;

/** 1 MB (UTF-8) of generated conversation text: Zipf-distributed words, tool-call JSON. */
function prose(bytes: number): string {
  const parts: string[] = [];
  let size = 0;
  for (let seed = 1; size < bytes; seed++) {
    for (const m of generateConversation({ interactions: 250, seed })) {
      const text = typeof m.content === 'string' ? m.content : '';
      for (const part of [text, ...(m.toolCalls ?? []).map((c) => c.arguments)]) {
        parts.push(part);
        size += Buffer.byteLength(part) + 1;
      }
    }
  }
  return parts.join('\n').slice(0, bytes);
}

export interface WorstCaseRow {
  kind: string;
  /** `countText`, or raw gpt-tokenizer `countTokens` for the references with separators. */
  counter: 'mem' | 'gpt-tokenizer';
  bytes: number;
  tokens: number;
  medianMs: number;
  maxMs: number;
  ratioToProse: number;
}

export interface WorstCaseResult {
  encoding: TokenEncoding;
  rounds: number;
  rows: WorstCaseRow[];
  maxRatio: number;
}

/**
 * Worst-case token counting: `countText` on 1 MB of each text without separators vs 1 MB of
 * prose. Every measurement starts from an empty BPE merge cache; rounds rotate the order of the
 * texts, so a slower or faster stretch of the machine hits every kind alike.
 */
export function benchWorstCaseTokens(encoding: TokenEncoding, rounds: number): WorstCaseResult {
  const counter = createTokenCounter({ encoding });
  const api = apis[encoding];
  const texts: Array<[string, string]> = [
    ['prose', prose(MB)],
    ...PATHOLOGICAL_KINDS.map((kind): [string, string] => [kind, pathologicalText(kind, MB)]),
  ];
  // The same characters as dna and cjk, with separators (FASTA lines of 60; clauses of 12
  // between full-width commas), counted by gpt-tokenizer itself: its cost on text that is not
  // in its vocabulary, when no piece is long.
  const references: Array<[string, string]> = [
    [
      'dna in 60-char lines',
      pathologicalText('dna', MB)
        .match(/.{1,60}/g)!
        .join('\n'),
    ],
    [
      'cjk in 12-char clauses',
      pathologicalText('cjk', MB)
        .match(/.{1,12}/g)!
        .join('，'),
    ],
  ];
  const isReference = new Set(references.map(([kind]) => kind));
  texts.push(...references);
  const samples = new Map<string, number[]>(texts.map(([kind]) => [kind, []]));
  const tokens = new Map<string, number>();
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < texts.length; k++) {
      const [kind, text] = texts[(k + r) % texts.length]!;
      api.clearMergeCache();
      const t0 = now();
      tokens.set(
        kind,
        isReference.has(kind) ? api.countTokens(text, PLAIN) : counter.countText(text),
      );
      samples.get(kind)!.push(Number(now() - t0) / 1e6);
    }
  }
  const proseMs = median(samples.get('prose')!);
  const rows = texts.map(([kind, text]) => {
    const ms = samples.get(kind)!;
    return {
      kind,
      counter: isReference.has(kind) ? ('gpt-tokenizer' as const) : ('mem' as const),
      bytes: Buffer.byteLength(text),
      tokens: tokens.get(kind)!,
      medianMs: median(ms),
      maxMs: Math.max(...ms),
      ratioToProse: median(ms) / proseMs,
    };
  });
  return {
    encoding,
    rounds,
    rows,
    maxRatio: Math.max(
      ...rows.filter((row) => row.counter === 'mem').map((row) => row.ratioToProse),
    ),
  };
}
