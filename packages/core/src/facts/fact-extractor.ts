import type { StoredMessage, UserFact } from '../store/store-spec.ts';
import type { SummarizeUsage } from '../summarize/summarizer.ts';

/** What a fact extractor reads: one finished interaction of a user's session and their facts. */
export interface FactExtractorInput {
  userId: string;
  sessionId: string;
  /** The finished interaction, oldest first: the user's message, tool calls, the answer. */
  messages: readonly StoredMessage[];
  /** The user's facts as they stand, oldest first. Operations name them by `id`. */
  facts: readonly UserFact[];
  /** ms since the epoch, for the new facts' times. */
  now: number;
}

/**
 * A change to a user's facts. `add` a new fact (with `about`, it supersedes a fact about the
 * same thing: the engine turns it into an update of that fact); `update` rewrites one; `delete`
 * removes one the conversation contradicts or the user asked to forget. `sourceMessageIds`
 * (optional) names the messages of the input it was learnt from; default: the user's messages.
 */
export type FactOperation =
  | { op: 'add'; text: string; about?: string; sourceMessageIds?: string[] }
  | { op: 'update'; id: string; text: string; about?: string; sourceMessageIds?: string[] }
  | { op: 'delete'; id: string };

export interface FactExtractorOptions {
  /** Aborted when the engine gives up on the extraction (its deadline, or shutdown). */
  signal: AbortSignal;
  /** Called with the tokens a model-backed extractor used (the engine emits them as `usage`). */
  onUsage?: (usage: SummarizeUsage) => void;
}

/**
 * Turns a finished interaction into operations on the user's facts. Runs in the background after
 * each finished interaction of a session that has a user; never on the request path. Its result
 * is checked (shape, ids, text) before anything is written: a bad result is reported as
 * `facts:error` naming the extractor, and the facts stay as they were.
 */
export interface FactExtractorV1 {
  readonly specificationVersion: 'mem.fact-extractor.v1';
  /** Names it in events and errors, e.g. `rules`, `openai:gpt-4o-mini`. */
  readonly id: string;
  extract(input: FactExtractorInput, options: FactExtractorOptions): Promise<FactOperation[]>;
}

export const FACT_EXTRACTOR_SPECIFICATION_VERSION = 'mem.fact-extractor.v1';

export type FactExtractor = FactExtractorV1;
