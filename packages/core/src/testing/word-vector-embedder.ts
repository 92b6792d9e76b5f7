import { analyzeText } from '../knowledge/analyze-text.ts';
import {
  EMBEDDER_SPECIFICATION_VERSION,
  type Embedder,
  type EmbedOptions,
} from '../knowledge/embedder-spec.ts';

/** Words that mean the same here land on one feature, so paraphrases come out near each other. */
const SYNONYM_WORDS: Readonly<Record<string, string>> = {
  bill: 'invoice',
  reimburse: 'refund',
  reimbursement: 'refund',
  rail: 'train',
  meal: 'lunch',
  noodle: 'ramen',
  outage: 'fail',
  crash: 'fail',
};

export interface WordVectorEmbedderOptions {
  id?: string;
  dimensions?: number;
  maxBatchSize?: number;
  /** Runs before each call answers (to check where it is called from, or to throw). */
  onEmbed?: (texts: readonly string[], options: EmbedOptions) => void;
}

export interface WordVectorEmbedder extends Embedder {
  /** Every call, in order. */
  readonly calls: { texts: string[]; purpose: EmbedOptions['purpose'] }[];
}

/**
 * A deterministic Embedder for tests, a tiny word-vector model: a text is the bag of its word
 * stems (the knowledge base's analyzer, a crude suffix stripper and `SYNONYMS`). Documents teach
 * it their stems, each getting its own dimension while there are free ones (then a hashed one);
 * a query's stems that no document used are out of vocabulary and dropped. So texts sharing no
 * stem are orthogonal, and a text with no known words is the zero vector. One instance keeps one
 * vocabulary: share it between the knowledge bases of one test file.
 */
export function createWordVectorEmbedder(
  options: WordVectorEmbedderOptions = {},
): WordVectorEmbedder {
  const { id = 'test:hashing', dimensions = 2048, maxBatchSize = 8, onEmbed } = options;
  const calls: WordVectorEmbedder['calls'] = [];
  const vocabulary = new Map<string, number>();
  const dimensionOf = (feature: string, learn: boolean): number | undefined => {
    let dimension = vocabulary.get(feature);
    if (dimension === undefined && learn) {
      dimension = vocabulary.size < dimensions ? vocabulary.size : fnv1a(feature) % dimensions;
      vocabulary.set(feature, dimension);
    }
    return dimension;
  };
  return {
    specificationVersion: EMBEDDER_SPECIFICATION_VERSION,
    id,
    dimensions,
    maxBatchSize,
    calls,
    embed: async (texts, embedOptions) => {
      calls.push({ texts: [...texts], purpose: embedOptions.purpose });
      // A real embedder answers later: let the caller's other work run first.
      await new Promise((resolve) => setImmediate(resolve));
      onEmbed?.(texts, embedOptions);
      const learn = embedOptions.purpose === 'document';
      const embeddings = texts.map((text) => {
        const vector = new Array<number>(dimensions).fill(0);
        for (const feature of features(text)) {
          const dimension = dimensionOf(feature, learn);
          if (dimension !== undefined) vector[dimension] = (vector[dimension] ?? 0) + 1;
        }
        return vector;
      });
      return { embeddings };
    },
  };
}

/** The stems of `text`, synonyms folded, once per occurrence. */
export function features(text: string): string[] {
  return analyzeText(text).map((term) => {
    const feature = stem(term);
    return synonyms().get(feature) ?? feature;
  });
}

let folded: Map<string, string> | undefined;
/** `SYNONYM_WORDS` as the analyzer sees them (it may stem words itself). */
function synonyms(): Map<string, string> {
  if (folded === undefined) {
    const feature = (word: string) => stem(analyzeText(word)[0] ?? word);
    folded = new Map(Object.entries(SYNONYM_WORDS).map(([w, to]) => [feature(w), feature(to)]));
  }
  return folded;
}

function stem(word: string): string {
  for (const suffix of ['ing', 'ed', 's']) {
    if (word.length > suffix.length + 2 && word.endsWith(suffix) && !word.endsWith('ss')) {
      return word.slice(0, -suffix.length);
    }
  }
  return word;
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}
