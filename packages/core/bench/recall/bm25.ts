/**
 * Plain BM25 (k1 1.2, b 0.75), the benchmark's baseline, written apart from core's knowledge
 * base on purpose: lowercase Unicode word tokens, no stemming, no stopword list, Lucene's idf
 * `ln(1 + (N - df + 0.5) / (df + 0.5))`. Ties go to the newer document.
 */
const WORD = /[\p{L}\p{M}\p{N}]+/gu;

export function words(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

export interface Bm25Hit {
  /** Index of the document in the list the index was built from. */
  doc: number;
  score: number;
}

export class Bm25Index {
  private readonly postings = new Map<string, { doc: number; tf: number }[]>();
  private readonly lengths: number[];
  private readonly avgLength: number;

  constructor(
    docs: readonly string[],
    private readonly k1 = 1.2,
    private readonly b = 0.75,
  ) {
    this.lengths = docs.map((text, doc) => {
      const tokens = words(text);
      const tf = new Map<string, number>();
      for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const [term, n] of tf) {
        const list = this.postings.get(term);
        if (list === undefined) this.postings.set(term, [{ doc, tf: n }]);
        else list.push({ doc, tf: n });
      }
      return tokens.length;
    });
    this.avgLength = this.lengths.reduce((s, n) => s + n, 0) / Math.max(1, docs.length);
  }

  /** Documents sharing a word with `query`, best first (all of them unless `topK`). */
  search(query: string, topK = Number.POSITIVE_INFINITY): Bm25Hit[] {
    const n = this.lengths.length;
    const scores = new Map<number, number>();
    for (const term of new Set(words(query))) {
      const list = this.postings.get(term);
      if (list === undefined) continue;
      const idf = Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5));
      for (const { doc, tf } of list) {
        const norm = this.k1 * (1 - this.b + (this.b * this.lengths[doc]!) / this.avgLength);
        scores.set(doc, (scores.get(doc) ?? 0) + (idf * tf * (this.k1 + 1)) / (tf + norm));
      }
    }
    return [...scores]
      .map(([doc, score]) => ({ doc, score }))
      .sort((x, y) => y.score - x.score || y.doc - x.doc)
      .slice(0, topK);
  }
}
