import { z } from 'zod';
import { assertValidCollectionId } from '../knowledge/validate-collection-id.ts';
import type { CustomLongTermConfig } from '../strategies/long-term/long-term-strategy.ts';

const int = (min: number) => z.int().min(min);
const conditionList = z.array(z.string().min(1, 'a condition cannot be empty')).default([]);
const toolNames = z.array(z.string().min(1, 'a tool name cannot be empty')).default([]);

/** `max_tokens` short-term strategy, exactly as the seeds write it. */
export const maxTokensStrategySchema = z.strictObject({
  memory_strategy_id: z.literal('max_tokens'),
  /** Prompt budget in tokens; -1 includes nothing. */
  memory_max_tokens: int(-1).default(10_000),
  /** CEL conditions; a message is shown only when all hold. */
  conditions: conditionList,
});

export const shortTermStrategySchema = maxTokensStrategySchema;

/**
 * A collection id every knowledge base accepts (the backends' own check, so a profile that parses
 * never fails later when the first summary is indexed).
 */
const collectionId = z.string().superRefine((value, ctx) => {
  try {
    assertValidCollectionId(value, 'collection_id');
  } catch (error) {
    ctx.addIssue({
      code: 'custom',
      message: (error as Error).message.replace(/^\[mem\/knowledge\] /, ''),
    });
  }
});

/** Where summaries (and archived turns) are indexed, and how they come back. */
export const knowledgeBaseConfigSchema = z.strictObject({
  collection_id: collectionId,
  /**
   * `always`: the chunks most relevant to the newest user message join every context, as many as
   * fit retrieval's share of the budget (see `knowledge_share`), at most `top_k`.
   */
  search_mode: z.enum(['always', 'never']).default('always'),
  /** At most this many chunks per context. Default 100: the token share usually decides first. */
  top_k: int(1).max(100).default(100),
  /**
   * mem's own field. Of the budget left after system prompts, the summary and the newest turn,
   * the share retrieved knowledge may fill; the recent window keeps the rest, and knowledge also
   * gets whatever the window does not need. 0 to 1, default 0.75.
   */
  knowledge_share: z.number().min(0).max(1).default(0.75),
  /**
   * mem's own field. Which chunks a session's search covers: `session`, its own; `user`, every
   * session of its user (never another user's). Default: `user` for a session that has a user
   * (`engine.session(id, { userId })`), else `session`.
   */
  scope: z.enum(['session', 'user']).optional(),
});

/** How summaries and archived turns are cut into chunks before indexing, in tokens. */
export const textSplitterConfigSchema = z
  .strictObject({
    chunk_size: int(16).max(8192).default(512),
    chunk_overlap: int(0).default(64),
  })
  .refine((v) => v.chunk_overlap < v.chunk_size, {
    message: 'chunk_overlap must be smaller than chunk_size',
    path: ['chunk_overlap'],
  });

/** Trigger fields every long-term strategy shares. 0 turns a threshold off. */
const sharedTriggerFields = {
  input_tokens_threshold: int(0).default(0),
  interaction_keep: int(0).default(0),
  interaction_conditions: conditionList,
  on_tools_success_threshold: toolNames,
  on_tools_error_threshold: toolNames,
};

export const summarizerStrategySchema = z.strictObject({
  long_term_memory_id: z.literal('summarizer'),
  ...sharedTriggerFields,
  interaction_threshold_qty: int(-1).default(20),
  interaction_threshold_tokens: int(-1).default(20_000),
  cod_max_loops: int(1).max(20).default(5),
  instructions: z.string().nullable().default(null),
  knowledge_base: knowledgeBaseConfigSchema.nullable().default(null),
  text_splitter: textSplitterConfigSchema.default({ chunk_size: 512, chunk_overlap: 64 }),
});

export const neuralyzerStrategySchema = z.strictObject({
  long_term_memory_id: z.literal('neuralyzer'),
  ...sharedTriggerFields,
  /** -1 = never. */
  interaction_threshold_qty: int(-1).default(-1),
  interaction_threshold_tokens: int(-1).default(-1),
});

export const longTermStrategySchema = z.discriminatedUnion(
  'long_term_memory_id',
  [summarizerStrategySchema, neuralyzerStrategySchema],
  { error: 'expected long_term_memory_id "summarizer" or "neuralyzer"' },
);

/**
 * The entry of a registered long-term strategy: the shared trigger fields (thresholds default to
 * -1, "never") plus the strategy's own `fields`, which may also redefine a shared field's default.
 */
export function customStrategySchema(id: string, fields: z.ZodRawShape = {}) {
  return z.strictObject({
    long_term_memory_id: z.literal(id),
    ...sharedTriggerFields,
    interaction_threshold_qty: int(-1).default(-1),
    interaction_threshold_tokens: int(-1).default(-1),
    ...fields,
  });
}

/**
 * mem's own field: the block of durable facts about the user shown in every session of a user,
 * right after the pinned system prompts, and how it is kept up to date.
 */
export const userFactsConfigSchema = z.strictObject({
  /** Most tokens the facts block may take of the prompt; the newest facts win. 0 shows none. */
  max_tokens: int(0).max(100_000).default(400),
  /**
   * `after_interaction`: the engine's fact extractor reads each finished interaction in the
   * background and updates the facts; `never`: facts change only through the API.
   */
  extraction: z.enum(['after_interaction', 'never']).default('after_interaction'),
});

export const persistenceStrategySchema = z.enum(['INCREMENTAL', 'FLUSH', 'EPHEMERAL']);

export const profileSchema = z.strictObject({
  short_term_memory_strategy: z.array(shortTermStrategySchema).default([]),
  long_term_memory_strategy: z.array(longTermStrategySchema).default([]),
  /**
   * INCREMENTAL appends new messages (summaries, links and archived originals kept); FLUSH
   * replaces the stored session by the current conversation after each inference (archives and
   * summary records dropped); EPHEMERAL never persists.
   */
  persistence_strategy: persistenceStrategySchema.default('INCREMENTAL'),
  /**
   * mem's own field: user facts for sessions that have a user (see `userFactsConfigSchema`);
   * `null` turns them off. Sessions without a user never show or extract facts.
   */
  user_facts: userFactsConfigSchema.nullable().default({
    max_tokens: 400,
    extraction: 'after_interaction',
  }),
});

/** The profile schema with registered long-term strategies accepted next to the built-in ones. */
export function profileSchemaWith(
  strategies: ReadonlyArray<{ readonly id: string; readonly fields?: z.ZodRawShape }>,
): typeof profileSchema {
  if (strategies.length === 0) return profileSchema;
  const ids = ['summarizer', 'neuralyzer', ...strategies.map((s) => s.id)];
  const entry = z.discriminatedUnion(
    'long_term_memory_id',
    [
      summarizerStrategySchema,
      neuralyzerStrategySchema,
      ...strategies.map((s) => customStrategySchema(s.id, s.fields)),
    ],
    { error: `expected long_term_memory_id ${ids.map((id) => `"${id}"`).join(', ')}` },
  );
  // The widened entry type is what MemoryProfile declares; zod's inferred one names built-ins only.
  return profileSchema.extend({
    long_term_memory_strategy: z.array(entry).default([]),
  }) as unknown as typeof profileSchema;
}

export type ShortTermStrategyConfig = z.output<typeof shortTermStrategySchema>;
export type SummarizerStrategyConfig = z.output<typeof summarizerStrategySchema>;
export type NeuralyzerStrategyConfig = z.output<typeof neuralyzerStrategySchema>;
/** A built-in long-term strategy's entry: the summarizer's or the neuralyzer's. */
export type LongTermStrategyConfig = z.output<typeof longTermStrategySchema>;
/** Any long-term entry of a profile: a built-in one, or one of a registered strategy. */
export type ProfileLongTermConfig = LongTermStrategyConfig | CustomLongTermConfig;
export type KnowledgeBaseConfig = z.output<typeof knowledgeBaseConfigSchema>;
export type TextSplitterConfig = z.output<typeof textSplitterConfigSchema>;
export type PersistenceStrategy = z.output<typeof persistenceStrategySchema>;
export type UserFactsConfig = z.output<typeof userFactsConfigSchema>;
export type ProfileConfig = Omit<z.output<typeof profileSchema>, 'long_term_memory_strategy'> & {
  long_term_memory_strategy: ProfileLongTermConfig[];
};
/** A profile as written in JSON (defaults may be left out). */
export type ProfileInput = z.input<typeof profileSchema>;

/** Narrows a long-term entry to the summarizer's. */
export const isSummarizerConfig = (
  config: ProfileLongTermConfig,
): config is SummarizerStrategyConfig => config.long_term_memory_id === 'summarizer';

/** Narrows a long-term entry to the neuralyzer's. */
export const isNeuralyzerConfig = (
  config: ProfileLongTermConfig,
): config is NeuralyzerStrategyConfig => config.long_term_memory_id === 'neuralyzer';
