import { InteractionLog } from '../../model/interaction-log.ts';
import { isSummaryMessage } from '../../model/message.ts';
import type { StoredMessage } from '../../store/store-spec.ts';
import { planPrefix } from '../../strategies/long-term/plan-prefix.ts';
import type { MemoryConfig } from './memory-manager-config.ts';

/** What `compress` asks the engine for. */
export interface CompressionPlan {
  /** Newest interactions kept active: the fewest holding at least `recentWindow` entries. */
  keepInteractions: number;
  /** Uncompressed entries the summary will replace (an earlier summary folded in is not one). */
  eligibleEntries: number;
  /** Tokens of everything replaced, an earlier summary included. */
  originalTokens: number;
  /** `compressionRatio` x `originalTokens`, at least 1. */
  targetTokens: number;
}

type Config = Pick<MemoryConfig, 'recentWindow' | 'minEntriesToCompress' | 'compressionRatio'>;

/**
 * Plans a compression of the active messages, oldest first. The last `recentWindow` entries stay
 * active; the engine keeps whole interactions, so this keeps the fewest newest interactions that
 * hold at least `recentWindow` entries (counting every non-summary message from the oldest kept
 * interaction on, added context included): a tool call and its result are never split. Undefined
 * when fewer than `minEntriesToCompress` uncompressed entries would be replaced.
 */
export function planCompression(
  active: readonly StoredMessage[],
  config: Config,
): CompressionPlan | undefined {
  const log = new InteractionLog<StoredMessage>(active);
  const total = log.interactions.length;
  const seqs = active.filter((m) => !isSummaryMessage(m)).map((m) => m.seq);
  let keep = 0;
  let kept = 0; // entries with seq >= the oldest kept interaction's first seq
  let i = seqs.length;
  while (keep < total && kept < config.recentWindow) {
    keep++;
    const from = log.interactions[total - keep]!.messages[0]!.seq;
    while (i > 0 && seqs[i - 1]! >= from) i--;
    kept = seqs.length - i;
  }
  const plan = planPrefix(log, keep);
  if (plan === undefined) return undefined;
  const eligibleEntries = plan.replaced.filter((m) => !isSummaryMessage(m)).length;
  if (eligibleEntries < config.minEntriesToCompress) return undefined;
  const originalTokens = plan.replaced.reduce((sum, m) => sum + m.tokenCount, 0);
  return {
    keepInteractions: keep,
    eligibleEntries,
    originalTokens,
    targetTokens: Math.max(1, Math.round(originalTokens * config.compressionRatio)),
  };
}
