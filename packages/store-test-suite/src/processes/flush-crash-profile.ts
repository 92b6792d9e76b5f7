/** The FLUSH crash test's profile: summarize every 4 interactions, keep the newest 1. */
export const FLUSH_CRASH_PROFILE = {
  persistence_strategy: 'FLUSH',
  long_term_memory_strategy: [
    {
      long_term_memory_id: 'summarizer',
      interaction_threshold_qty: 4,
      interaction_threshold_tokens: 0,
      interaction_keep: 1,
    },
  ],
};
