import type { SessionAppendOptions } from '@mem/core';
import type { UsageLike } from './middleware-types.ts';

function total(value: UsageLike['inputTokens']): number | undefined {
  const n = typeof value === 'number' ? value : value?.total;
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 ? n : undefined;
}

/** The provider's reported usage as mem's append option (nothing when no input count came back). */
export function usageOption(usage: UsageLike | undefined): SessionAppendOptions {
  const inputTokens = total(usage?.inputTokens);
  if (inputTokens === undefined) return {};
  const outputTokens = total(usage?.outputTokens);
  return { usage: outputTokens === undefined ? { inputTokens } : { inputTokens, outputTokens } };
}
