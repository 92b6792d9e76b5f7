import { z } from 'zod';
import type { MessageInput } from '../../engine/memory-session.ts';
import { MemValidationError } from '../../errors/errors.ts';
import type { TokenCounter } from '../../tokens/token-counter.ts';

/** Options of `Memory.add`. */
export interface MemoryAddOptions {
  /**
   * The turn's size as the provider reported it, in tokens (> 0). Recorded instead of counting:
   * see `turnMessages`. 0 or absent: both messages are counted with the token counter.
   */
  tokens?: number;
}

const addSchema = z.tuple([
  z.string({ error: 'expected the user message as a string' }),
  z.string({ error: 'expected the assistant reply as a string' }),
  z
    .strictObject({
      tokens: z.int().min(0, 'must be 0 (count) or a positive number of tokens').optional(),
    })
    .optional(),
]);
const FIELDS = ['user', 'assistant', 'options'];

/**
 * The two messages of one turn. With `tokens > 0` the turn costs exactly `tokens`: the user
 * message is counted (capped at `tokens`) and the assistant reply gets the rest, at least 0. So
 * the reported figure is what thresholds and windows see, and only the user text — which the
 * provider's figure does not split out — is tokenized.
 */
export function turnMessages(
  user: unknown,
  assistant: unknown,
  options: unknown,
  counter: TokenCounter,
): [MessageInput, MessageInput] {
  const parsed = addSchema.safeParse([user, assistant, options]);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const [index, ...rest] = issue.path;
      const field = [FIELDS[index as number] ?? 'add', ...rest.map(String)].join('.');
      return { field, message: `${field}: ${issue.message}` };
    });
    throw new MemValidationError(
      problems[0]?.field ?? 'add',
      `[mem/core] Memory.add(user, assistant, { tokens }): ${problems.map((p) => p.message).join('; ')}`,
      { cause: parsed.error },
    );
  }
  const [userText, assistantText, opts] = parsed.data;
  const userMessage: MessageInput = { role: 'user', content: userText };
  const assistantMessage: MessageInput = { role: 'assistant', content: assistantText };
  const tokens = opts?.tokens ?? 0;
  if (tokens === 0) return [userMessage, assistantMessage];
  const userTokens = Math.min(
    tokens,
    counter.countMessage({ ...userMessage, id: 'count', createdAt: 0 }),
  );
  return [
    { ...userMessage, tokenCount: userTokens },
    { ...assistantMessage, tokenCount: tokens - userTokens },
  ];
}
