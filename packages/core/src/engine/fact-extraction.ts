import { MemSummarizerError, MemValidationError } from '../errors/errors.ts';
import { changeUserFacts } from '../facts/change-user-facts.ts';
import {
  applyFactOperations,
  checkFactOperations,
  FACT_OPERATIONS_EXPECTED,
} from '../facts/fact-operations.ts';
import type { StoredMessage } from '../store/store-spec.ts';
import type { EngineContext } from './engine-context.ts';
import { isAnswered, type SessionState } from './session-state.ts';
import { afterCurrentWork } from './turn-indexing.ts';

/**
 * Background fact extraction for one session: `queue()` runs the engine's fact extractor on each
 * complete interaction (answered, or followed by a newer one) not read yet, one at a time, in
 * order, once the caller's own work has yielded. Only for a session that has a user, when the
 * profile's `user_facts.extraction` is `after_interaction` and the engine has an extractor.
 */
export function createFactExtraction(ctx: EngineContext, state: SessionState): { queue(): void } {
  const configured =
    ctx.factExtractor !== undefined &&
    ctx.profile.config.user_facts?.extraction === 'after_interaction';
  const extractComplete = async (): Promise<void> => {
    const userId = state.userId;
    if (userId === undefined) return;
    const after = state.factsSeq ?? 0;
    const all = state.log.interactions;
    const todo = all.filter(
      (interaction, i) =>
        (interaction.messages[0]?.seq ?? 0) > after &&
        (i < all.length - 1 || isAnswered(interaction.messages)) &&
        interaction.messages.some((m) => m.role === 'user'),
    );
    for (const interaction of todo) {
      await extractFacts(ctx, userId, state.id, interaction.messages);
      state.factsSeq = Math.max(state.factsSeq ?? 0, interaction.messages[0]!.seq);
    }
  };
  const queue = (): void => {
    if (!configured || state.userId === undefined) return;
    const run = (state.extracting ?? Promise.resolve())
      .then(afterCurrentWork)
      .then(extractComplete);
    state.extracting = run;
    void run.finally(() => {
      if (state.extracting === run) state.extracting = undefined;
    });
  };
  return { queue };
}

/**
 * Runs the extractor on one interaction under the summarizer's deadline, checks its result and
 * applies it to the user's facts with compare-and-swap. Failures are reported as `facts:error`
 * and change nothing; it never throws.
 */
export async function extractFacts(
  ctx: EngineContext,
  userId: string,
  sessionId: string,
  messages: readonly StoredMessage[],
): Promise<void> {
  const extractor = ctx.factExtractor;
  if (extractor === undefined) return;
  const fail = (error: unknown) =>
    ctx.events.emit('facts:error', { userId, sessionId, extractor: extractor.id, error });
  const name = `fact extractor ${JSON.stringify(extractor.id)}`;
  try {
    const now = ctx.now();
    const { facts } = await ctx.store.userFacts(userId);
    let result: unknown;
    try {
      result = await withDeadline(ctx.summarizerTimeoutMs, (signal) =>
        extractor.extract(
          {
            userId,
            sessionId,
            messages: structuredClone(messages),
            facts: structuredClone(facts),
            now,
          },
          {
            signal,
            onUsage: (usage) => ctx.events.emit('usage', { sessionId, ...usage }),
          },
        ),
      );
    } catch (error) {
      const what = error instanceof DeadlineError ? error.message : describe(error);
      fail(
        new MemSummarizerError(
          `[mem/core] ${name} ${what}; the user's facts are unchanged. ${FACT_OPERATIONS_EXPECTED}.`,
          { cause: error },
        ),
      );
      return;
    }
    const checked = checkFactOperations(result);
    if (!checked.ok) {
      fail(
        new MemValidationError(
          'factExtractor',
          `[mem/core] ${name} returned an unusable result (${checked.problem}); the user's facts are unchanged. ${FACT_OPERATIONS_EXPECTED}.`,
        ),
      );
      return;
    }
    if (checked.operations.length === 0) return;
    const source = {
      sessionId,
      messageIds: messages.map((m) => m.id),
      defaultSourceIds: messages.filter((m) => m.role === 'user').map((m) => m.id),
      now,
      newId: ctx.newId,
    };
    const applied = await changeUserFacts(ctx.store, userId, (current) =>
      applyFactOperations(current, checked.operations, source),
    );
    const { added, updated, deleted } = applied;
    if (added.length + updated.length + deleted.length === 0) return;
    ctx.events.emit('facts:updated', { userId, sessionId, added, updated, deleted });
  } catch (error) {
    fail(error);
  }
}

class DeadlineError extends Error {}

/** `run(signal)`, rejected with a `DeadlineError` (and the signal aborted) after `ms`. */
async function withDeadline<T>(
  ms: number | null,
  run: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  const work = Promise.resolve().then(() => run(controller.signal));
  if (ms === null) return work;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new DeadlineError(`did not answer within ${ms} ms (summarizerTimeout)`);
      controller.abort(error);
      reject(error);
    }, ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
    // A late answer or rejection is dropped.
    work.catch(() => undefined);
  }
}

function describe(error: unknown): string {
  const what = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return `threw (${what.slice(0, 200)})`;
}
