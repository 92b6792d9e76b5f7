import { seededRandom } from '../../testing/generate-conversation.ts';

/**
 * Texts without separators, the worst case of a byte-pair encoder: each is one pre-tokenizer
 * piece (or a few), so the whole text reaches the merge loop at once. Used by the tests and by
 * `pnpm bench` (worst-case token counting).
 */
export const PATHOLOGICAL_KINDS = [
  'spaces',
  'equals',
  'nul',
  'emoji',
  'dna',
  'cjk',
  'a-run',
  'printable',
] as const;
export type PathologicalKind = (typeof PATHOLOGICAL_KINDS)[number];

const units: Record<PathologicalKind, (random: () => number) => string> = {
  spaces: () => ' ',
  equals: () => '=',
  nul: () => '\0',
  emoji: () => '😀',
  dna: (random) => 'ACGT'[Math.floor(random() * 4)]!,
  // CJK Unified Ideographs, no punctuation: one letter run.
  cjk: (random) => String.fromCharCode(0x4e00 + Math.floor(random() * 3000)),
  'a-run': () => 'a',
  printable: (random) => String.fromCharCode(0x20 + Math.floor(random() * 95)),
};

const utf8Bytes = (unit: string): number => Buffer.byteLength(unit, 'utf8');

/** `bytes` UTF-8 bytes (at most, whole characters) of one pathological kind, reproducible by seed. */
export function pathologicalText(kind: PathologicalKind, bytes: number, seed = 1): string {
  const random = seededRandom(seed);
  const next = units[kind];
  const parts: string[] = [];
  let size = 0;
  for (;;) {
    const unit = next(random);
    size += utf8Bytes(unit);
    if (size > bytes) break;
    parts.push(unit);
  }
  return parts.join('');
}
