import { modelCounting } from '@mem/core';

/**
 * The model id mem counts tokens for: the wrapped model's `modelId` (`gpt-4o-mini`,
 * `claude-sonnet-4-5`, `us.anthropic.claude-…` on Bedrock), which picks the encoding (see
 * `modelCounting` in `@mem/core`). An id mem cannot read (not a string, or characters no provider
 * uses) is left out, so the call is counted as without a model rather than refused.
 */
export function modelIdOf(model: unknown): string | undefined {
  const id =
    typeof model === 'object' && model !== null
      ? (model as { modelId?: unknown }).modelId
      : undefined;
  if (typeof id !== 'string') return undefined;
  try {
    modelCounting(id);
    return id;
  } catch {
    return undefined;
  }
}

/** `{ model }` for mem's `context()` / `append()` options, or nothing. */
export const modelOption = (model: string | undefined): { model?: string } =>
  model === undefined ? {} : { model };
