import { type ConfigIssue, isSummarizerConfig, type MemoryProfile } from '@mem/core';

/**
 * What one playground replay may use. Past a bound the server answers with a 4xx that names it,
 * never a hang: requests past `maxTurns` or a profile past the index bound are refused up front;
 * a replay that runs longer than `timeLimitMs` or needs more than `memoryLimitMb` is stopped.
 */
export interface ReplayLimits {
  /** Most turns of a generated conversation. */
  maxTurns: number;
  /** Wall-clock time one replay may run. */
  timeLimitMs: number;
  /** Heap of the replay worker (V8 old generation), in MB. */
  memoryLimitMb: number;
}

export const DEFAULT_REPLAY_LIMITS: ReplayLimits = {
  maxTurns: 10_000,
  timeLimitMs: 180_000,
  memoryLimitMb: 1024,
};

/**
 * Profile settings the playground refuses although core accepts them, because they make the
 * knowledge index explode: with a knowledge base, `text_splitter.chunk_overlap` may be at most
 * half of `chunk_size` (16/15 indexes every token 16 times: 24 ms and 0.2 MB per turn).
 */
export function profileBoundIssues(profile: MemoryProfile, prefix: string): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  profile.config.long_term_memory_strategy.forEach((strategy, i) => {
    if (!isSummarizerConfig(strategy) || strategy.knowledge_base === null) return;
    const { chunk_size, chunk_overlap } = strategy.text_splitter;
    if (chunk_overlap * 2 > chunk_size) {
      issues.push({
        path: `${prefix}long_term_memory_strategy[${i}].text_splitter.chunk_overlap`,
        message: `the playground indexes chunks with an overlap of at most half of chunk_size (here at most ${Math.floor(chunk_size / 2)}); a larger overlap indexes every word many times over`,
      });
    }
  });
  return issues;
}
