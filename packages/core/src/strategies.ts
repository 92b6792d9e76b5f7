/**
 * `@mem/core/strategies`, building blocks the engine is made of: conditions, the interaction
 * log, window selection, long-term strategies (the built-in ones, their triggers and planning,
 * summary drafts), prompt validity, the text splitter, strategy parsing and schemas, and the
 * token overheads the counter applies.
 */

export type { CompiledCondition } from './conditions/compile-condition.ts';
export { compileCondition, compileConditions } from './conditions/compile-condition.ts';
export type { ConditionCost } from './conditions/condition-budget.ts';
export { CONDITION_LIMITS } from './conditions/condition-environment.ts';
export type { ConditionValue } from './conditions/condition-value.ts';
export type {
  ConditionVars,
  InteractionConditionVars,
  MessageConditionVars,
} from './conditions/condition-vars.ts';
export { interactionVars, messageVars } from './conditions/condition-vars.ts';
export { parseLongTermStrategy, parseShortTermStrategy } from './config/parse-profile.ts';
export {
  customStrategySchema,
  knowledgeBaseConfigSchema,
  longTermStrategySchema,
  maxTokensStrategySchema,
  neuralyzerStrategySchema,
  persistenceStrategySchema,
  shortTermStrategySchema,
  summarizerStrategySchema,
  textSplitterConfigSchema,
} from './config/profile-schema.ts';
export type { SplitTextOptions, TextSpan } from './knowledge/text-splitter.ts';
export { splitText, splitTextSpans } from './knowledge/text-splitter.ts';
export type { Interaction } from './model/interaction.ts';
export type { ConversationView } from './model/interaction-log.ts';
export { groupInteractions, InteractionLog } from './model/interaction-log.ts';
export { isValidPrompt, promptProblems, sanitizeInteraction } from './model/prompt-validity.ts';
export {
  neuralyzerStrategy,
  summarizerStrategy,
} from './strategies/long-term/builtin-strategies.ts';
export type {
  CustomLongTermConfig,
  LongTermPlan,
  LongTermStrategy,
  LongTermTriggerConfig,
  SyncLongTermStrategy,
} from './strategies/long-term/long-term-strategy.ts';
export { nestedSummaries } from './strategies/long-term/nested-summaries.ts';
export type { PrefixPlan } from './strategies/long-term/plan-prefix.ts';
export { isPinned, planPrefix } from './strategies/long-term/plan-prefix.ts';
export type { TimeRange } from './strategies/long-term/summary-draft.ts';
export {
  summaryDraft,
  summaryRecord,
  summaryTextCap,
  summaryTimeRange,
} from './strategies/long-term/summary-draft.ts';
export type { AppendedFacts } from './strategies/long-term/triggers.ts';
export { appendedFacts, TriggerCounter } from './strategies/long-term/triggers.ts';
export {
  conditionFilter,
  createShortTermStrategies,
} from './strategies/short-term/from-profile.ts';
export type {
  MaxTokensStrategyOptions,
  MessageFilter,
} from './strategies/short-term/max-tokens-strategy.ts';
export { createMaxTokensStrategy } from './strategies/short-term/max-tokens-strategy.ts';
export type {
  ShortTermStrategy,
  WindowSelection,
} from './strategies/short-term/short-term-strategy.ts';
export { selectionMessages, selectWindow } from './strategies/short-term/short-term-strategy.ts';
export {
  MESSAGE_OVERHEAD_TOKENS,
  NAME_OVERHEAD_TOKENS,
  REPLY_PRIMING_TOKENS,
  TOOL_CALL_OVERHEAD_TOKENS,
  withTokenCount,
} from './tokens/token-counter.ts';
