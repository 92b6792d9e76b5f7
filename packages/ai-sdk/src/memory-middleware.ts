import { isSummaryMessage, type MemorySession, type Message } from '@mem/core';
import { collectStream } from './collect-stream.ts';
import { type MemoryMiddlewareOptions, sessionResolver } from './memory-middleware-options.ts';
import type { CallOptionsLike, MemoryMiddleware, UsageLike } from './middleware-types.ts';
import { newMessages } from './new-messages.ts';
import { fromPrompt, fromResponse, toPrompt } from './prompt-messages.ts';
import { usageOption } from './usage.ts';

const outsideSystem = (messages: readonly Message[]) => messages.filter((m) => m.role !== 'system');

/**
 * The prompt's messages the session does not hold yet (system messages aside). They are compared
 * with the newest active messages, as many as the prompt has (only such a suffix can match: a
 * tail read, not the whole session); when nothing matches there and a summary has replaced older
 * turns, with the originals the summaries replaced (a step or a caller may re-send turns a
 * compaction has just summarized). Reading the archive is left to that case.
 */
async function unstored(session: MemorySession, prompt: readonly Message[]): Promise<Message[]> {
  if (prompt.length === 0) return [];
  const tail = await activeTail(session, prompt.length);
  const fresh = newMessages(prompt, tail.messages);
  if (fresh.length < prompt.length || prompt.length < 2) return fresh;
  const summarized = tail.whole ? tail.summarized : (await session.summaries()).length > 0;
  if (!summarized) return fresh;
  return newMessages(prompt, outsideSystem(await session.history()));
}

/**
 * The newest `count` active messages other than system ones (fewer when the session holds
 * fewer). System messages in between are skipped by reading further back. `whole` when the read
 * reached the start of the active conversation; `summarized` when it holds a summary there.
 */
async function activeTail(
  session: MemorySession,
  count: number,
): Promise<{ messages: Message[]; whole: boolean; summarized: boolean }> {
  for (let last = count; ; last *= 2) {
    const read = await session.messages({ last });
    const messages = outsideSystem(read);
    const whole = read.length < last;
    if (whole || messages.length >= count) {
      return { messages, whole, summarized: read.some(isSummaryMessage) };
    }
  }
}

function withoutIdentity(m: Message): Omit<Message, 'id' | 'createdAt'> {
  const { id: _id, createdAt: _createdAt, ...rest } = m;
  return rest;
}

async function appendResponse(
  session: MemorySession,
  messages: Message[],
  usage: UsageLike | undefined,
): Promise<void> {
  if (messages.length === 0) return;
  await session.append(messages.map(withoutIdentity), usageOption(usage));
}

/**
 * A language-model middleware that gives a model a mem session's memory. Before each call it
 * appends the call's new messages to the session and replaces the prompt with the session's
 * context (the caller's system messages first, then mem's pinned prompts, summary, recalled
 * knowledge and window); after the call it appends the response with the reported usage. Works
 * with `generateText` and `streamText` (appended when the stream finishes), multi-step tool
 * loops included: what a step re-sends is recognised and not stored twice.
 *
 * ```ts
 * const model = wrapLanguageModel({ model: openai('gpt-4o'), middleware: memoryMiddleware({ engine, sessionId: 'chat-1' }) });
 * ```
 */
export function memoryMiddleware(options: MemoryMiddlewareOptions): MemoryMiddleware {
  const resolve = sessionResolver(options);
  const sessions = new WeakMap<object, MemorySession>();
  const sessionOf = async (params: CallOptionsLike) => sessions.get(params) ?? resolve(params);

  return {
    specificationVersion: 'v3',

    async transformParams({ params }) {
      const session = await resolve(params);
      const fresh = await unstored(session, outsideSystem(fromPrompt(params.prompt)));
      if (fresh.length > 0) await session.append(fresh.map(withoutIdentity));
      const context = await session.context();
      const system = params.prompt.filter((m) => m.role === 'system');
      const next = { ...params, prompt: [...system, ...toPrompt(context.messages)] };
      sessions.set(next, session);
      return next;
    },

    async wrapGenerate({ doGenerate, params }) {
      const result = await doGenerate();
      await appendResponse(await sessionOf(params), fromResponse(result.content), result.usage);
      return result;
    },

    async wrapStream({ doStream, params }) {
      const session = await sessionOf(params);
      const result = await doStream();
      const collector = collectStream(({ content, usage }) =>
        appendResponse(session, fromResponse(content), usage),
      );
      return { ...result, stream: result.stream.pipeThrough(collector) };
    },
  };
}
