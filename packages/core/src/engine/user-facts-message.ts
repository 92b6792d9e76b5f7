import { normalizeFactText } from '../facts/fact-operations.ts';
import { type CountedMessage, isSummaryMessage } from '../model/message.ts';
import type { UserFact } from '../store/store-spec.ts';
import type { TokenCounter } from '../tokens/token-counter.ts';

/** First line of the facts block. */
export const USER_FACTS_HEADER = 'What you know about the user (from earlier conversations):';
/** The facts block's message id: the same in every context, so prompt caches keep it. */
export const USER_FACTS_MESSAGE_ID = 'mem:user-facts';

/** Fact lines priced per counter, by text; bounded. */
const priced = new WeakMap<TokenCounter, Map<string, number>>();
const MAX_PRICED_FACTS = 8_192;

function lineTokens(counter: TokenCounter, line: string): number {
  let lines = priced.get(counter);
  if (lines === undefined) {
    lines = new Map();
    priced.set(counter, lines);
  }
  let tokens = lines.get(line);
  if (tokens === undefined) {
    tokens = counter.countText(`\n${line}`);
    if (lines.size >= MAX_PRICED_FACTS) lines.clear();
    lines.set(line, tokens);
  }
  return tokens;
}

/**
 * The facts block: one system message, the header then a `- fact` line per fact, holding the
 * most recently updated facts that fit `maxTokens` (the message's own count), shown oldest first
 * (as stored). Undefined when none fits. Never stored, never indexed.
 */
export function userFactsMessage(
  counter: TokenCounter,
  facts: readonly UserFact[],
  maxTokens: number,
): CountedMessage | undefined {
  if (maxTokens <= 0 || facts.length === 0) return undefined;
  const frame = (content: string): CountedMessage => ({
    id: USER_FACTS_MESSAGE_ID,
    role: 'system',
    content,
    createdAt: 0,
    tokenCount: 0,
  });
  const base = counter.countMessage(frame(USER_FACTS_HEADER));
  const lines = facts.map((fact, order) => ({
    fact,
    order,
    line: `- ${normalizeFactText(fact.text)}`,
  }));
  const newestFirst = [...lines].sort(
    (a, b) => b.fact.updatedAt - a.fact.updatedAt || b.order - a.order,
  );
  // Pick by the lines' own prices, then count the message once and drop the stalest if over.
  let estimate = base;
  const kept: typeof lines = [];
  for (const entry of newestFirst) {
    if (entry.line.length <= 2) continue;
    const next = estimate + lineTokens(counter, entry.line);
    if (next > maxTokens) continue;
    estimate = next;
    kept.push(entry);
  }
  while (kept.length > 0) {
    const shown = [...kept].sort((a, b) => a.order - b.order);
    const content = [USER_FACTS_HEADER, ...shown.map((e) => e.line)].join('\n');
    const message = frame(content);
    const tokenCount = counter.countMessage(message);
    if (tokenCount <= maxTokens) {
      return {
        ...message,
        createdAt: Math.max(...shown.map((e) => e.fact.updatedAt)),
        metadata: { kind: 'user_facts', factIds: shown.map((e) => e.fact.id) },
        tokenCount,
      };
    }
    kept.pop();
  }
  return undefined;
}

/** The system messages with the facts block right after the pinned prompts (before a summary). */
export function withUserFacts(
  system: readonly CountedMessage[],
  facts: CountedMessage | undefined,
): readonly CountedMessage[] {
  if (facts === undefined) return system;
  const at = system.findIndex(isSummaryMessage);
  const cut = at < 0 ? system.length : at;
  return [...system.slice(0, cut), facts, ...system.slice(cut)];
}
