/**
 * The Embedder contract, version 1: turns text into vectors for a semantic knowledge base.
 * Types only; `@mem/summarizers` implements it for the AI SDK and the OpenAI SDK, and a vector
 * knowledge base (`@mem/store-sqlite`) calls it when chunks are added and when it searches.
 */
export const EMBEDDER_SPECIFICATION_VERSION = 'mem.embedder.v1';

export interface EmbedOptions {
  /** `document`: chunks being indexed. `query`: a search. Some models embed the two differently. */
  purpose: 'document' | 'query';
  /** Aborts the call (deadline or caller). */
  signal?: AbortSignal;
}

export interface EmbedResult {
  /** One vector per input text, in order, each of `dimensions` finite numbers. */
  embeddings: number[][];
  /** Input tokens the call spent, when the provider reports it. */
  usage?: { inputTokens: number };
}

/** The Embedder contract, version 1 (`mem.embedder.v1`). */
export interface EmbedderV1 {
  readonly specificationVersion: typeof EMBEDDER_SPECIFICATION_VERSION;
  /**
   * Identifies the model and its settings (`openai:text-embedding-3-small@512`). A knowledge base
   * stores it with its vectors and refuses to mix vectors of different embedders.
   */
  readonly id: string;
  /** Length of every vector this embedder returns. */
  readonly dimensions: number;
  /** At most this many texts per `embed` call (callers batch). */
  readonly maxBatchSize: number;
  embed(texts: readonly string[], options: EmbedOptions): Promise<EmbedResult>;
}

/** The Embedder of the version this core speaks. */
export type Embedder = EmbedderV1;
