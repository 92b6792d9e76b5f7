import { type MemorySession, MemValidationError, type Message } from '@mem/core';
import { type SessionHistory, sessionHistory } from './history-cache.ts';
import { lockedStream } from './locked-stream.ts';
import { checkOptions, type MemoryMiddlewareOptions } from './memory-middleware-options.ts';
import type { CallOptionsLike, MemoryMiddleware, UsageLike } from './middleware-types.ts';
import { modelIdOf, modelOption } from './model-id.ts';
import { promptHistory } from './prompt-history.ts';
import { fromResponse, toPrompt } from './prompt-messages.ts';
import { acquireSessionLock, type SessionLease } from './session-lock.ts';
import { storePrompt, withoutIdentity } from './store-prompt.ts';
import { usageOption } from './usage.ts';

/** A call between `transformParams` and the end of its `wrapGenerate` / `wrapStream`. */
interface Call {
  session: MemorySession;
  lease: SessionLease;
  /** What the middleware keeps of the stored conversation, brought up to date by the answer. */
  history: SessionHistory;
  /** The wrapped model's id: mem counts the prompt's tokens with its encoding. */
  model: string | undefined;
  unclaimed: ReturnType<typeof setTimeout>;
}

/**
 * The AI SDK calls `wrapGenerate` / `wrapStream` right after `transformParams`; a caller that
 * transforms and never wraps (driving the middleware by hand) gets its lock released after this.
 */
const CLAIM_MS = 1000;

async function appendResponse(
  session: MemorySession,
  history: SessionHistory | undefined,
  messages: Message[],
  usage: UsageLike | undefined,
  model: string | undefined,
): Promise<void> {
  if (messages.length === 0) return;
  const appended = await session.append(messages.map(withoutIdentity), {
    ...usageOption(usage),
    ...modelOption(model),
  });
  history?.appended(appended);
}

function promptOf(params: unknown): readonly unknown[] {
  const prompt = (params as { prompt?: unknown } | null)?.prompt;
  if (Array.isArray(prompt)) return prompt;
  throw new MemValidationError(
    'prompt',
    '[mem/ai-sdk] memoryMiddleware: the call has no prompt array (params.prompt); call the wrapped model through generateText or streamText, or pass a LanguageModelV3/V4 prompt.',
  );
}

const signalOf = (params: CallOptionsLike) =>
  params.abortSignal instanceof AbortSignal ? params.abortSignal : undefined;

/**
 * A language-model middleware that gives a model a mem session's memory. Before each call it
 * stores the call's new messages in the session and replaces the prompt with the session's
 * context (the caller's system messages first, then mem's pinned prompts, summary, recalled
 * knowledge and window); after the call it stores the response with the reported usage. Works
 * with `generateText` and `streamText` (stored when the stream finishes), multi-step tool loops
 * included: what a step re-sends is recognised and not stored twice. Overlapping calls on one
 * session run one after another (session-lock.ts); a re-sent history that differs from the
 * stored one follows the rules of history-alignment.ts.
 *
 * ```ts
 * const model = wrapLanguageModel({ model: openai('gpt-4o'), middleware: memoryMiddleware({ engine, sessionId: 'chat-1' }) });
 * ```
 */
export function memoryMiddleware(options: MemoryMiddlewareOptions): MemoryMiddleware {
  const { engine, sessionOf, changedHistory, streamIdleTimeoutMs } = checkOptions(options);
  const calls = new WeakMap<object, Call>();
  // The call `transformParams` prepared, or (wrapped without it) the session and no lock.
  const claim = async (params: CallOptionsLike, model: unknown) => {
    const call = calls.get(params);
    if (call === undefined) {
      return {
        session: await sessionOf(params),
        lease: undefined,
        history: undefined,
        model: modelIdOf(model),
      };
    }
    clearTimeout(call.unclaimed);
    calls.delete(params);
    return call;
  };

  return {
    specificationVersion: 'v3',

    async transformParams({ params, model: wrapped }) {
      const model = modelIdOf(wrapped);
      const prompt = promptHistory(promptOf(params) as CallOptionsLike['prompt']);
      const session = await sessionOf(params);
      const lease = await acquireSessionLock(engine, session.id, signalOf(params));
      let history: SessionHistory | undefined;
      try {
        history = await sessionHistory(engine, session);
        await storePrompt(session, prompt, changedHistory, history);
        const context = await session.context(modelOption(model));
        const system = params.prompt.filter((m) => m.role === 'system');
        const next = { ...params, prompt: [...system, ...toPrompt(context.messages)] };
        const unclaimed = setTimeout(() => lease.release(), CLAIM_MS);
        if (typeof unclaimed === 'object') unclaimed.unref?.();
        calls.set(next, { session, lease, history, unclaimed, model });
        return next;
      } catch (error) {
        history?.forget();
        lease.release();
        throw error;
      }
    },

    async wrapGenerate({ doGenerate, params, model: wrapped }) {
      const { session, lease, history, model } = await claim(params, wrapped);
      // An aborted call stores nothing, so the next call need not wait for the model to stop.
      const signal = signalOf(params);
      const release = () => lease?.release();
      signal?.addEventListener('abort', release, { once: true });
      try {
        const result = await doGenerate();
        // An aborted call stores nothing of its answer, as an aborted stream does.
        if (signal?.aborted !== true) {
          const content = fromResponse(result.content);
          await appendResponse(session, history, content, result.usage, model);
        }
        return result;
      } finally {
        signal?.removeEventListener('abort', release);
        release();
      }
    },

    async wrapStream({ doStream, params, model: wrapped }) {
      const { session, lease, history, model } = await claim(params, wrapped);
      const result = await Promise.resolve(doStream()).catch((error: unknown) => {
        lease?.release();
        throw error;
      });
      const stream = lockedStream(result.stream, {
        lease,
        signal: signalOf(params),
        idleTimeoutMs: streamIdleTimeoutMs,
        store: ({ content, usage }) =>
          appendResponse(session, history, fromResponse(content), usage, model),
      });
      return { ...result, stream };
    },
  };
}
