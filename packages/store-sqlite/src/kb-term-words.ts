/* The binary form of a chunk's terms in `mem_kb_terms.terms` (see kb-terms.ts). */

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** A stored encoding as uint32 words: `n` term ids, then their `n` frequencies. */
export function termWords(encoded: Buffer): Uint32Array {
  const words = encoded.length >>> 2;
  if (LITTLE_ENDIAN && encoded.byteOffset % 4 === 0) {
    return new Uint32Array(encoded.buffer, encoded.byteOffset, words);
  }
  const out = new Uint32Array(words);
  for (let i = 0; i < words; i++) out[i] = encoded.readUInt32LE(4 * i);
  return out;
}

/**
 * Writes into `into[slot]` the frequency of each wanted term in a row's words (0 when absent):
 * `wanted` holds [term id, slot] pairs sorted by id, merged with the row's sorted ids.
 */
export function frequenciesIn(
  words: Uint32Array,
  wanted: readonly (readonly [id: number, slot: number])[],
  into: Float64Array,
): void {
  const n = words.length >>> 1;
  let i = 0;
  for (const [id, slot] of wanted) {
    // Gallop: the ids are sorted, so skip ahead by doubling steps, then search in between.
    let step = 1;
    while (i + step < n && (words[i + step] as number) < id) step *= 2;
    let lo = i;
    let hi = Math.min(n, i + step + 1);
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((words[mid] as number) < id) lo = mid + 1;
      else hi = mid;
    }
    i = lo;
    if (i >= n) return;
    if (words[i] === id) into[slot] = words[n + i] as number;
  }
}
