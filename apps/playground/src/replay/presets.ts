/**
 * The seed profiles (reference documents, example 001), as the playground offers them. The JSON
 * texts are copied verbatim from `@mem/core`'s fixture `config/__fixtures__/seed-examples.ts`.
 */
export type PresetName = 'short-term' | 'summarizer' | 'neuralyzer' | 'combined';

const SHORT_TERM = `{
"short_term_memory_strategy": [
{
"memory_strategy_id": "max_tokens",
"memory_max_tokens": 8000
}
]
}`;

const SUMMARIZER = `{
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
}`;

const NEURALYZER = `{
"long_term_memory_strategy": [
{
"long_term_memory_id": "neuralyzer",
"interaction_threshold_qty": 30,
"interaction_keep": 5
}
]
}`;

const COMBINED = `{
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
}`;

/** Each preset's profile is the parsed seed JSON (snake_case; `combined` is wrapped in `profile`). */
export const PRESETS: { name: PresetName; profile: unknown }[] = [
  { name: 'short-term', profile: JSON.parse(SHORT_TERM) },
  { name: 'summarizer', profile: JSON.parse(SUMMARIZER) },
  { name: 'neuralyzer', profile: JSON.parse(NEURALYZER) },
  { name: 'combined', profile: JSON.parse(COMBINED) },
];

/** The preset's profile JSON; throws for an unknown name. */
export function presetProfile(name: PresetName): unknown {
  const preset = PRESETS.find((p) => p.name === name);
  if (preset === undefined) throw new Error(`[mem/playground] no preset named ${name}`);
  return preset.profile;
}
