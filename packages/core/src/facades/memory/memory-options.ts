import { z } from 'zod';
import { formatPath } from '../../config/parse-profile.ts';
import {
  storeProblem,
  summarizerProblem,
  tokenCounterProblem,
} from '../../engine/resolve-parts.ts';
import { type ConfigIssue, MemConfigError } from '../../errors/errors.ts';
import type { Store } from '../../store/store-spec.ts';
import { assertValidSessionId, assertValidUserId } from '../../store/validate-ids.ts';
import type { Summarizer } from '../../summarize/summarizer.ts';
import type { TokenCounter } from '../../tokens/token-counter.ts';
import { partSchema } from '../part-schema.ts';
import type { MemoryStrategy } from './strategy-profile.ts';

/** Options of `new Memory(...)`. Every field is optional. */
export interface MemoryOptions {
  /** How the conversation is bounded. Default `'auto'`. */
  strategy?: MemoryStrategy;
  /** `auto`: prompt budget in tokens, and the turn size that triggers a summary. Default 4,000. */
  maxTokens?: number;
  /** Hard backstop on retained turns (all strategies); a one-shot warning when it fires. Default 1,000. */
  maxTurns?: number;
  /** Where the conversation lives. Default: a new in-memory store (lost with the process). */
  store?: Store;
  /**
   * Summarizes for `summary` and `auto`: a function or an object with `summarize`, called once
   * per compression (a `chainOfDensity` object runs its passes in that call). Default: the
   * extractive summary (no LLM) — bounded, but lossy.
   */
  summarizer?: Summarizer;
  /**
   * Deadline of one summarization in ms; on timeout the extractive fallback runs. Only an async
   * summarizer can be cut short: a synchronous one blocks the process until it returns. `null`:
   * no deadline — `add()` still never waits, but a stuck summarizer holds back every later
   * compression (and `clear()`, which waits for it). Default 30,000.
   */
  summarizerTimeout?: number | null;
  /** The conversation's id in the store; reuse it (with the same store) to reopen it. Default: a random id. */
  sessionId?: string;
  /**
   * The user the conversation belongs to (1-512 characters of well-formed text): the conversation
   * is stored for that user, the user's facts (learnt from what the user says: a name, where they
   * live, "remember that ...") join `messages()`, and the engine's `forgetUser` erases it.
   * Reopening the conversation for another user is refused. Default: none.
   */
  userId?: string;
  /** Counts tokens of messages. Default: gpt-tokenizer, o200k_base. */
  tokenCounter?: TokenCounter;
}

/** Options with every default filled in. */
export interface ResolvedMemoryOptions {
  strategy: MemoryStrategy;
  maxTokens: number;
  maxTurns: number;
  store: Store | undefined;
  summarizer: Summarizer | undefined;
  summarizerTimeout: number | null;
  sessionId: string;
  userId: string | undefined;
  tokenCounter: TokenCounter | undefined;
}

const storeSchema = partSchema<Store>(storeProblem);

const summarizerSchema = partSchema<Summarizer>(summarizerProblem);

const tokenCounterSchema = partSchema<TokenCounter>(tokenCounterProblem);

const sessionIdSchema = z.string().superRefine((value, ctx) => {
  try {
    assertValidSessionId(value);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message });
  }
});

const userIdSchema = z.string().superRefine((value, ctx) => {
  try {
    assertValidUserId(value);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message });
  }
});

const optionsSchema = z.strictObject({
  strategy: z
    .enum(['auto', 'sliding', 'summary', 'none'], {
      error: 'expected "auto", "sliding", "summary" or "none"',
    })
    .default('auto'),
  maxTokens: z.int().min(1, 'must be a positive number of tokens').default(4000),
  maxTurns: z.int().min(1, 'must be a positive number of turns').default(1000),
  store: storeSchema.optional(),
  summarizer: summarizerSchema.optional(),
  summarizerTimeout: z
    .number()
    .positive('must be a positive number of ms, or null for no deadline')
    .nullable()
    .default(30_000),
  sessionId: sessionIdSchema.optional(),
  userId: userIdSchema.optional(),
  tokenCounter: tokenCounterSchema.optional(),
});

const KNOWN = Object.keys(optionsSchema.shape).join(', ');

function issuesOf(error: z.ZodError): ConfigIssue[] {
  return error.issues.flatMap((issue): ConfigIssue[] =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({
          path: formatPath([...issue.path, key]),
          message: `unknown option; expected one of ${KNOWN}`,
        }))
      : [{ path: formatPath(issue.path), message: issue.message }],
  );
}

/** Validates `new Memory(...)` options; throws one `MemConfigError` listing every bad option. */
export function parseMemoryOptions(input: unknown): ResolvedMemoryOptions {
  const parsed = optionsSchema.safeParse(input ?? {});
  if (!parsed.success) {
    throw new MemConfigError(issuesOf(parsed.error), {
      source: 'Memory options',
      cause: parsed.error,
    });
  }
  const o = parsed.data;
  return {
    strategy: o.strategy,
    maxTokens: o.maxTokens,
    maxTurns: o.maxTurns,
    store: o.store,
    summarizer: o.summarizer,
    summarizerTimeout: o.summarizerTimeout,
    sessionId: o.sessionId ?? crypto.randomUUID(),
    userId: o.userId,
    tokenCounter: o.tokenCounter,
  };
}
