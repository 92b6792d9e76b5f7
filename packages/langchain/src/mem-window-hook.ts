import type { BaseMessage } from '@langchain/core/messages';
import {
  type CountedMessage,
  createTokenCounter,
  MemValidationError,
  parseProfile,
  type TokenCounter,
} from '@mem/core';
import {
  createMaxTokensStrategy,
  createShortTermStrategies,
  groupInteractions,
  type ShortTermStrategy,
  selectionMessages,
  selectWindow,
  withTokenCount,
} from '@mem/core/strategies';
import { fromLangChainMessage } from './convert/from-langchain.ts';
import { toLangChainMessage } from './convert/to-langchain.ts';

export interface MemWindowOptions {
  /** Prompt budget in tokens (mem's `max_tokens` window, reply priming included). */
  maxTokens?: number;
  /**
   * A mem profile (JSON or parsed) whose `short_term_memory_strategy` chooses the window instead,
   * e.g. a `max_tokens` window with `conditions`. Give `maxTokens` or `profile`.
   */
  profile?: unknown;
  /** Counts tokens. Default: mem's counter (gpt-tokenizer, o200k_base). */
  tokenCounter?: TokenCounter;
}

/** What the hook returns: the messages the model sees this step (the state is not changed). */
export interface MemWindowUpdate {
  llmInputMessages: BaseMessage[];
}

/**
 * A LangGraph pre-model hook (`createReactAgent({ preModelHook })`) that gives the model mem's
 * window over the thread's messages: system messages, then the newest whole interactions (a user
 * message with every AI message and tool result after it) that fit in `maxTokens`. A tool call is
 * never separated from its result. When the newest interaction alone is too large, its user
 * message is kept with the newest complete steps that fit. System messages are always kept, even
 * past the budget. Messages are passed on as the same LangChain objects (a message mem had to
 * repair, e.g. a tool call whose result is missing, is rebuilt without the orphan).
 *
 * The graph's `messages` are left as they are: only `llmInputMessages` is set. Each message object
 * is converted and counted once per hook, so a step costs little more than grouping the thread.
 *
 * @throws MemValidationError when neither `maxTokens` nor a profile with a short-term strategy is
 *   given, or when the budget cannot hold even the newest user message.
 */
export function memWindowHook(
  options: MemWindowOptions,
): (state: { messages: BaseMessage[] }) => MemWindowUpdate {
  const counter = options.tokenCounter ?? createTokenCounter();
  const strategies = windowStrategies(options, counter);
  // Each LangChain message is converted and counted once (the thread grows by a few per step).
  const cache = new WeakMap<BaseMessage, CountedMessage>();
  let next = 0;
  return (state) => {
    const input = state.messages;
    if (!Array.isArray(input)) {
      throw new MemValidationError(
        'state.messages',
        '[mem/langchain] memWindowHook reads the graph state\'s "messages": use it as the preModelHook of createReactAgent (or a graph with MessagesAnnotation).',
      );
    }
    const originals = new Map<string, { counted: CountedMessage; message: BaseMessage }>();
    const counted = input.map((message, i) => {
      let m = cache.get(message);
      if (m === undefined) {
        m = withTokenCount(
          { id: `m${next++}`, createdAt: 0, ...fromLangChainMessage(message, i) },
          counter,
        );
        cache.set(message, m);
      }
      originals.set(m.id, { counted: m, message });
      return m;
    });
    const selection = selectWindow(
      groupInteractions(counted),
      strategies,
      counter.replyPrimingTokens,
    );
    const chosen = selectionMessages(selection);
    if (chosen.length === 0 && counted.length > 0) {
      throw new MemValidationError(
        'maxTokens',
        '[mem/langchain] The token budget cannot hold even the newest user message: raise maxTokens.',
      );
    }
    return {
      llmInputMessages: chosen.map((m) => {
        const original = originals.get(m.id);
        // mem only ever strips tool calls (those without a result) from a message it keeps.
        const unchanged =
          original !== undefined &&
          (m.toolCalls?.length ?? 0) === (original.counted.toolCalls?.length ?? 0);
        return unchanged ? original.message : toLangChainMessage(m);
      }),
    };
  };
}

function windowStrategies(options: MemWindowOptions, counter: TokenCounter): ShortTermStrategy[] {
  if (options.profile !== undefined) {
    const strategies = createShortTermStrategies(parseProfile(options.profile), counter);
    if (strategies.length > 0) return strategies;
    throw new MemValidationError(
      'profile.short_term_memory_strategy',
      '[mem/langchain] memWindowHook needs a profile with a short-term strategy (e.g. max_tokens), or pass maxTokens.',
    );
  }
  const { maxTokens } = options;
  if (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens) || maxTokens <= 0) {
    throw new MemValidationError(
      'maxTokens',
      `[mem/langchain] maxTokens must be a positive integer (the prompt budget in tokens), got ${String(maxTokens)}.`,
    );
  }
  return [createMaxTokensStrategy({ maxTokens, counter })];
}
