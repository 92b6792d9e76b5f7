import type { ShortTermStrategy } from '../strategies/short-term/short-term-strategy.ts';
import type { TokenCounter } from '../tokens/token-counter-spec.ts';

/** One way of counting, with the short-term strategies that budget by it. */
export interface Counting {
  readonly counter: TokenCounter;
  readonly shortTerm: readonly ShortTermStrategy[];
}
