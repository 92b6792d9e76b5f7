import { MemValidationError } from '../errors/errors.ts';
import type { ConversationView } from '../model/interaction-log.ts';
import type { ShortTermStrategy } from '../strategies/short-term/short-term-strategy.ts';
import { checkModelId, modelCounting } from '../tokens/model-counting.ts';
import { createTokenCounter, type TokenCounter } from '../tokens/token-counter.ts';
import type { Counting } from './counting.ts';
import type { EngineContext } from './engine-context.ts';
import { tokenCounterProblem } from './resolve-parts.ts';
import type { SessionState } from './session-state.ts';

/** A counter per model: mem calls it once per model id a call names (or `undefined`: no model). */
export type TokenCounterForModel = (model: string | undefined) => TokenCounter;

export type { Counting } from './counting.ts';

/** The engine's countings: one per counter, shared by every session. */
export interface Countings {
  /** For calls that name no model: `createMemoryEngine({ model })`'s, else o200k_base. */
  readonly default: Counting;
  /** The counting for a model id (checked; a bad one is a MemValidationError naming `field`). */
  forModel(model: unknown, field?: string): Counting;
}

/** Distinct model ids remembered per engine (a factory's counters); the oldest are forgotten. */
const MAX_MODELS = 256;

/**
 * Resolves model ids to countings. Built-in counters are shared by every model id with the same
 * counting (`gpt-4o` and `gpt-5` are one o200k_base counter), so moving between them recounts
 * nothing. A `TokenCounter` given to the engine counts for every model; a factory is called once
 * per model id, and its counters are told apart by identity.
 */
export function createCountings(options: {
  model: string | undefined;
  tokenCounter: TokenCounter | TokenCounterForModel | undefined;
  shortTerm: (counter: TokenCounter) => ShortTermStrategy[];
}): Countings {
  const { tokenCounter, shortTerm } = options;
  const byCounter = new Map<TokenCounter, Counting>();
  const countingOf = (counter: TokenCounter): Counting => {
    let counting = byCounter.get(counter);
    if (counting === undefined) {
      counting = { counter, shortTerm: shortTerm(counter) };
      byCounter.set(counter, counting);
    }
    return counting;
  };
  const builtIn = new Map<string, TokenCounter>();
  const byModel = new Map<string, TokenCounter>();
  const counterFor = (model: string | undefined): TokenCounter => {
    if (tokenCounter !== undefined && typeof tokenCounter !== 'function') return tokenCounter;
    if (typeof tokenCounter === 'function') {
      const key = model ?? '';
      let counter = byModel.get(key);
      if (counter === undefined) {
        counter = tokenCounter(model);
        const problem = tokenCounterProblem(counter);
        if (problem !== undefined) {
          throw new MemValidationError(
            'tokenCounter',
            `[mem/core] tokenCounter(${JSON.stringify(model ?? null)}) returned no counter: ${problem}.`,
          );
        }
        if (byModel.size >= MAX_MODELS) byModel.clear();
        byModel.set(key, counter);
      }
      return counter;
    }
    const key = modelCounting(model);
    let counter = builtIn.get(key);
    if (counter === undefined) {
      counter = createTokenCounter(model === undefined ? {} : { model });
      builtIn.set(key, counter);
    }
    return counter;
  };
  const model = options.model === undefined ? undefined : checkModelId(options.model);
  const fallback = countingOf(counterFor(model));
  return {
    default: fallback,
    forModel: (id, field = 'model') => countingOf(counterFor(checkModelId(id, field))),
  };
}

/**
 * A session's view of the engine: the same context, but counting as the session does now
 * (`state.counting`, which a call naming another model switches), and short-term strategies
 * that budget by that counting. Everything reads the counting at call time.
 */
export function sessionCounting(
  ctx: EngineContext,
  state: SessionState,
): { ctx: EngineContext; shortTerm: ShortTermStrategy[] } {
  const current = () => state.counting.counter;
  // `encode`/`decode` are there exactly when the current counter has them.
  const counter = {
    get encoding() {
      return current().encoding;
    },
    get replyPrimingTokens() {
      return current().replyPrimingTokens;
    },
    countText: (text) => current().countText(text),
    countMessage: (message) => current().countMessage(message),
    get encode() {
      const c = current();
      return c.encode === undefined ? undefined : (text: string) => c.encode?.(text) ?? [];
    },
    get decode() {
      const c = current();
      return c.decode === undefined
        ? undefined
        : (tokens: readonly number[]) => c.decode?.(tokens) ?? '';
    },
    ready: async () => {
      await current().ready?.();
    },
  } as TokenCounter;
  // The engine's context stays the prototype: a summarizer set later (`setSummarizer`) is seen.
  const scoped = Object.create(ctx, { counter: { value: counter } }) as EngineContext;
  const shortTerm = state.counting.shortTerm.map((strategy, i) => ({
    id: strategy.id,
    select: (view: ConversationView) => state.counting.shortTerm[i]!.select(view),
  }));
  return { ctx: scoped, shortTerm };
}
