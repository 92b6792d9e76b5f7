import type { MemoryProfile } from '../config/parse-profile.ts';
import type { FactExtractor } from '../facts/fact-extractor.ts';
import type { KnowledgeBase } from '../knowledge/knowledge-base-spec.ts';
import type { Store } from '../store/store-spec.ts';
import type { LongTermStrategies } from '../strategies/long-term/strategy-registry.ts';
import type { Summarizer } from '../summarize/summarizer.ts';
import type { SummaryGate } from '../summarize/summary-gate.ts';
import type { TokenCounter } from '../tokens/token-counter.ts';
import type { EngineEvents } from './engine-events.ts';

/** What the engine's parts share: configuration and collaborators, resolved once. */
export interface EngineContext {
  readonly profile: MemoryProfile;
  /** Long-term strategies by id: built-in and registered; every profile entry's is here. */
  readonly strategies: LongTermStrategies;
  /** Where sessions are written: the user's store, or a private in-memory one (EPHEMERAL). */
  readonly store: Store;
  /** Replaceable at run time (`engine.setSummarizer`). */
  summarizer: Summarizer | undefined;
  readonly summarizerTimeoutMs: number | null;
  /** Judges every summary before it is stored (the engine's `summaryGate`). */
  readonly summaryGate?: SummaryGate;
  readonly knowledgeBase: KnowledgeBase | undefined;
  /** Learns user facts after each complete interaction; undefined: none (`factExtractor: null`). */
  readonly factExtractor?: FactExtractor | undefined;
  readonly counter: TokenCounter;
  readonly events: EngineEvents;
  readonly compressionRatio: number;
  readonly maxSummaryTokens: number;
  readonly now: () => number;
  readonly newId: () => string;
}
