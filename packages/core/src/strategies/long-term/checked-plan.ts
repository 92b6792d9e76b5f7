import { z } from 'zod';
import { MemValidationError } from '../../errors/errors.ts';
import type { InteractionLog } from '../../model/interaction-log.ts';
import type { StoredMessage } from '../../store/store-spec.ts';
import type { LongTermPlan } from './long-term-strategy.ts';
import type { PrefixPlan } from './plan-prefix.ts';

/**
 * What a long-term strategy's `plan()` returned, checked before the engine acts on it: a
 * registered strategy is user code, and a plan that erases through the wrong seq would lose
 * history. The plan's messages are replaced by the session's own (by seq), so the summarizer
 * and the archive see exactly what is stored.
 */

const EXPECTED =
  "plan() must return undefined (nothing to do), { action: 'summarize', prefix, instructions, loops } " +
  "or { action: 'erase', prefix }, with prefix from planPrefix(log, keep)";

const seqSchema = z.number().int().nonnegative();
const prefixSchema = z.object({
  replaced: z
    .array(z.looseObject({ seq: seqSchema, id: z.string() }))
    .min(1, 'must hold at least one message (return undefined when there is nothing to replace)'),
  throughSeq: seqSchema,
  keepSeqs: z.array(seqSchema),
  interactions: z.number().int().nonnegative(),
  previousSummary: z.looseObject({ id: z.string() }).optional(),
});
const planSchema = z.discriminatedUnion('action', [
  z.object({
    action: z.literal('summarize'),
    prefix: prefixSchema,
    instructions: z.string().nullable(),
    loops: z.number().int().min(1),
  }),
  z.object({ action: z.literal('erase'), prefix: prefixSchema }),
]);

/** Where the plan came from, for error messages. */
export interface PlanSource {
  /** The strategy's `long_term_memory_id`. */
  readonly id: string;
  /** Its position in the profile, e.g. `long_term_memory_strategy[0]`. */
  readonly field: string;
}

/** The error for a strategy that threw or returned something else than a plan. */
export function planError(
  source: PlanSource,
  problem: string,
  cause?: unknown,
): MemValidationError {
  return new MemValidationError(
    `${source.field}.plan`,
    `[mem/core] long-term strategy "${source.id}" (${source.field}): ${problem}. ${EXPECTED}. ` +
      'History is unchanged; fix the strategy.',
    cause === undefined ? {} : { cause },
  );
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'object') {
    if (typeof (value as { then?: unknown }).then === 'function') return 'a Promise';
    return Array.isArray(value) ? 'an array' : 'an object';
  }
  if (typeof value === 'string') return `the string ${JSON.stringify(value.slice(0, 40))}`;
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : typeof value;
}

function issueText(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => `${i.path.length > 0 ? i.path.join('.') : '(plan)'}: ${i.message}`)
    .join('; ');
}

/**
 * Checks `value` (what `plan(log, config)` returned, awaited) against `log`, the history it was
 * planned from: the shape of a plan, and a prefix that is the session's own messages, in order,
 * through `throughSeq`, every active message up to it either replaced or kept.
 */
export function checkedPlan(
  source: PlanSource,
  log: InteractionLog<StoredMessage>,
  value: unknown,
): LongTermPlan | undefined {
  if (value === undefined) return undefined;
  const parsed = planSchema.safeParse(value);
  if (!parsed.success) {
    const shaped = typeof value === 'object' && value !== null && !Array.isArray(value);
    const what = shaped ? `an invalid plan (${issueText(parsed.error)})` : describe(value);
    throw planError(source, `plan() returned ${what}`);
  }
  const plan = parsed.data;
  const prefix = checkedPrefix(source, log, plan.prefix);
  return plan.action === 'erase'
    ? { action: 'erase', prefix }
    : { action: 'summarize', prefix, instructions: plan.instructions, loops: plan.loops };
}

function checkedPrefix(
  source: PlanSource,
  log: InteractionLog<StoredMessage>,
  prefix: z.infer<typeof prefixSchema>,
): PrefixPlan {
  const active = new Map<number, StoredMessage>();
  for (const m of log.system) active.set(m.seq, m);
  for (const interaction of log.interactions)
    for (const m of interaction.messages) active.set(m.seq, m);
  const bad = (problem: string) => planError(source, `plan() returned a prefix that ${problem}`);

  const replaced: StoredMessage[] = [];
  let last = 0;
  for (const [i, m] of prefix.replaced.entries()) {
    const own = active.get(m.seq);
    if (own === undefined || own.id !== m.id) {
      throw bad(`replaces a message not in the session (replaced[${i}], seq ${m.seq})`);
    }
    if (m.seq <= last) throw bad(`is not in seq order (replaced[${i}], seq ${m.seq})`);
    last = m.seq;
    replaced.push(own);
  }
  if (prefix.throughSeq !== last) {
    throw bad(`ends at throughSeq ${prefix.throughSeq}, not at its last message (seq ${last})`);
  }
  const replacedSeqs = new Set(replaced.map((m) => m.seq));
  for (const seq of prefix.keepSeqs) {
    if (!active.has(seq) || seq > last || replacedSeqs.has(seq)) {
      throw bad(`keeps seq ${seq}, which is not an unreplaced message up to throughSeq`);
    }
  }
  const kept = new Set(prefix.keepSeqs);
  for (const seq of active.keys()) {
    if (seq <= last && !replacedSeqs.has(seq) && !kept.has(seq)) {
      throw bad(`leaves out seq ${seq}: every message up to throughSeq is replaced or kept`);
    }
  }
  const previousId = prefix.previousSummary?.id;
  const previousSummary =
    previousId === undefined ? undefined : replaced.find((m) => m.id === previousId);
  if (previousId !== undefined && previousSummary === undefined) {
    throw bad(`names a previousSummary (${JSON.stringify(previousId)}) it does not replace`);
  }
  return {
    replaced,
    throughSeq: last,
    keepSeqs: [...prefix.keepSeqs].sort((a, b) => a - b),
    interactions: prefix.interactions,
    previousSummary,
  };
}
