/**
 * Every JSON example of the reference documents (../shared/seeds), copied verbatim, with the
 * seed each comes from. Entries are single strategies, profile fragments, or wrapped profiles.
 */
export const seedExamples = [
  {
    seed: '000 MemoryMaxTokensStrategy',
    kind: 'short-term',
    json: `{ "memory_strategy_id": "max_tokens", "memory_max_tokens": 8000, "conditions": ["message.role != 'tool'"]}`,
  },
  {
    seed: '000 SummarizerStrategy',
    kind: 'long-term',
    json: `{ "long_term_memory_id": "summarizer", "interaction_threshold_qty": 15, "interaction_threshold_tokens": 15000, "cod_max_loops": 3, "interaction_keep": 2, "instructions": "Focus on decisions made and action items.", "knowledge_base": { "collection_id": "session-memory", "search_mode": "always", "top_k": 3 }}`,
  },
  {
    seed: '000 NeuralyzerStrategy',
    kind: 'long-term',
    json: `{ "long_term_memory_id": "neuralyzer", "interaction_threshold_qty": 30, "interaction_keep": 5}`,
  },
  {
    seed: '001 short-term memory',
    kind: 'profile',
    json: `{
"short_term_memory_strategy": [
{
"memory_strategy_id": "max_tokens",
"memory_max_tokens": 8000
}
]
}`,
  },
  {
    seed: '001 summarizer',
    kind: 'profile',
    json: `{
"long_term_memory_strategy": [
{
"long_term_memory_id": "summarizer",
"interaction_threshold_qty": 20,
"interaction_threshold_tokens": 20000,
"cod_max_loops": 5,
"interaction_keep": 3,
"instructions": "Focus on action items and decisions made.",
"knowledge_base": {
"collection_id": "session-summaries",
"search_mode": "always"
}
}
]
}`,
  },
  {
    seed: '001 neuralyzer',
    kind: 'profile',
    json: `{
"long_term_memory_strategy": [
{
"long_term_memory_id": "neuralyzer",
"interaction_threshold_qty": 30,
"interaction_keep": 5
}
]
}`,
  },
  {
    seed: '001 combined',
    kind: 'profile',
    json: `{
"profile": {
"short_term_memory_strategy": [
{ "memory_strategy_id": "max_tokens", "memory_max_tokens": 8000 }
],
"long_term_memory_strategy": [
{
"long_term_memory_id": "summarizer",
"interaction_threshold_qty": 20,
"cod_max_loops": 3,
"interaction_keep": 2
}
]
}
}`,
  },
] as const;
