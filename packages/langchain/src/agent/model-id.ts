import { modelCounting } from '@mem/core';

/**
 * The model id mem counts tokens for, read from a LangChain chat model: `model` (ChatOpenAI,
 * ChatAnthropic, ...) or the older `modelName`. An id mem cannot read is left out, so the call
 * is counted as without a model rather than refused.
 */
export function modelIdOf(model: unknown): string | undefined {
  if (typeof model !== 'object' || model === null) return undefined;
  const { model: id, modelName } = model as { model?: unknown; modelName?: unknown };
  for (const candidate of [id, modelName]) {
    if (typeof candidate !== 'string') continue;
    try {
      modelCounting(candidate);
      return candidate;
    } catch {
      // not an id a provider spells: try the next field, else count without a model
    }
  }
  return undefined;
}

/** `{ model }` for mem's `context()` / `append()` options, or nothing. */
export const modelOption = (model: string | undefined): { model?: string } =>
  model === undefined ? {} : { model };
