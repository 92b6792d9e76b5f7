import { z } from 'zod';
import { messageSchema } from '../model/message-schema.ts';
import { MAX_IDEMPOTENCY_KEY_LENGTH, MAX_MESSAGE_TOKENS } from './store-limits.ts';
import { MAX_USER_FACT_LENGTH, MAX_USER_FACTS } from './store-spec.ts';
import { sessionIdProblem } from './validate-ids.ts';

const count = z.number().int().nonnegative();
const seq = z.number().int().positive();
const time = z.number().finite();

// Grouped by hand: `toLocaleString` at import would start ICU, 20-40 ms of every cold start.
const maxTokensText = String(MAX_MESSAGE_TOKENS).replace(/\B(?=(\d{3})+$)/g, ',');

/** A message with its token count (at most `MAX_MESSAGE_TOKENS`), as `append`, `replace` and `compact` take it. */
export const countedMessageSchema = messageSchema.extend({
  tokenCount: count.max(MAX_MESSAGE_TOKENS, {
    message: `must be at most ${maxTokensText} tokens per message (so session totals stay exact)`,
  }),
});

/** A message as a store returns it: counted and numbered. */
export const storedMessageSchema = countedMessageSchema.extend({ seq });

/** Idempotency keys: 1 to 512 UTF-16 code units of well-formed Unicode (see store-limits.ts). */
export const idempotencyKeySchema = z
  .string()
  .min(1)
  .max(MAX_IDEMPOTENCY_KEY_LENGTH)
  .refine((key) => key.isWellFormed(), {
    message: 'contains a lone UTF-16 surrogate (not valid Unicode); pass well-formed text',
  });

/** Session and user ids (`assertValidSessionId` rules), as a schema: the same checks, the same words. */
export const sessionIdSchema = z.string().superRefine((id, ctx) => {
  const problem = sessionIdProblem(id);
  if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
});

/** Well-formed text of `min`..`max` UTF-16 code units. */
const wellFormedText = (min: number, max: number) =>
  z
    .string()
    .min(min)
    .max(max)
    .refine((text) => text.isWellFormed(), {
      message: 'contains a lone UTF-16 surrogate (not valid Unicode); pass well-formed text',
    });

export const summaryRecordSchema = z.object({
  id: messageSchema.shape.id,
  originalMessageIds: z.array(messageSchema.shape.id).min(1),
  fromSeq: seq,
  throughSeq: seq,
  originalTokenCount: count,
  tokenCount: count,
  compressionRatio: z.number().finite().nonnegative(),
  timeRange: z.object({ start: time, end: time }),
  createdAt: time,
  previousSummaryId: messageSchema.shape.id.optional(),
});

export const sessionInfoSchema = z.object({
  id: z.string(),
  version: count,
  epoch: count,
  lastSeq: count,
  messageCount: count,
  tokenCount: count,
  createdAt: time,
  updatedAt: time,
  userId: sessionIdSchema.optional(),
});

export const idempotencyRecordSchema = z.object({
  key: idempotencyKeySchema,
  version: count,
  epoch: count,
  firstSeq: seq,
  lastSeq: seq,
});

/** A `SessionSnapshot`, checked field by field (consistency is checked by `parseSessionSnapshot`). */
export const sessionSnapshotSchema = z.object({
  format: z.literal('mem.session.v1'),
  sessionId: z.string(),
  info: sessionInfoSchema,
  messages: z.array(storedMessageSchema),
  archived: z.array(storedMessageSchema),
  summaries: z.array(summaryRecordSchema),
  idempotencyKeys: z.array(idempotencyRecordSchema),
});

export const appendOptionsSchema = z.object({
  idempotencyKey: idempotencyKeySchema,
  userId: sessionIdSchema.optional(),
});

export const readOptionsSchema = z.object({
  afterSeq: count.optional(),
  beforeSeq: count.optional(),
  limit: count.optional(),
  from: z.enum(['start', 'end']).optional(),
});

export const listOptionsSchema = z.object({
  cursor: z.string().min(1).optional(),
  limit: z.number().int().positive().optional(),
  userId: sessionIdSchema.optional(),
});

const keepSeqs = z.array(seq).max(10_000).optional();

export const compactInputSchema = z.object({
  expectedEpoch: count,
  throughSeq: seq,
  keepSeqs,
  summary: countedMessageSchema,
  record: summaryRecordSchema,
});

export const eraseInputSchema = z.object({ expectedEpoch: count, throughSeq: seq, keepSeqs });

export const flushInputSchema = z.object({ expectedEpoch: count });

export const replaceInputSchema = z.object({
  expectedVersion: count.optional(),
  messages: z.array(countedMessageSchema),
});

/** One `UserFact` (see store-spec.ts for the limits). */
export const userFactSchema = z.object({
  id: wellFormedText(1, 256),
  text: wellFormedText(1, MAX_USER_FACT_LENGTH).refine((text) => text.trim().length > 0, {
    message: 'is blank; a fact is a sentence',
  }),
  about: wellFormedText(1, 128).optional(),
  sessionId: sessionIdSchema.optional(),
  sourceMessageIds: z.array(messageSchema.shape.id).max(256),
  createdAt: time,
  updatedAt: time,
});

/** A `writeUserFacts` input (ids are checked unique by `parseUserFactsWrite`). */
export const writeUserFactsInputSchema = z.object({
  expectedVersion: count.refine(Number.isSafeInteger, { message: 'must be a safe integer' }),
  facts: z.array(userFactSchema).max(MAX_USER_FACTS, {
    message: `holds at most ${MAX_USER_FACTS} facts; drop or merge some`,
  }),
});
