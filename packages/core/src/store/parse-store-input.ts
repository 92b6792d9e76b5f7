import type { z } from 'zod';
import { MemValidationError } from '../errors/errors.ts';
import { type CountedMessage, isSummaryMessage } from '../model/message.ts';
import { cloneJsonValue } from './json-value.ts';
import {
  appendOptionsSchema,
  compactInputSchema,
  countedMessageSchema,
  eraseInputSchema,
  flushInputSchema,
  listOptionsSchema,
  readOptionsSchema,
  replaceInputSchema,
  writeUserFactsInputSchema,
} from './store-schemas.ts';
import type {
  AppendOptions,
  CompactInput,
  EraseInput,
  FlushInput,
  ListOptions,
  ReadOptions,
  ReplaceInput,
  SummaryRecord,
  UserFact,
  WriteUserFactsInput,
} from './store-spec.ts';

/*
 * Input checks every Store backend performs the same way, so that a bad call fails identically
 * on every backend. Each parser returns a deep copy: stored data never aliases caller objects.
 */

/**
 * Checks a batch of messages for `append` / `replace`: the Message schema, a non-negative integer
 * `tokenCount`, JSON-safe values and ids unique within the batch.
 *
 * @throws MemValidationError naming the bad path (`messages[2].tokenCount`, `messages[1].id`).
 */
export function parseCountedMessages(
  messages: unknown,
  options: { allowEmpty?: boolean; field?: string } = {},
): CountedMessage[] {
  const field = options.field ?? 'messages';
  if (!Array.isArray(messages)) {
    throw new MemValidationError(field, `[mem/store] ${field} must be an array of messages.`);
  }
  if (messages.length === 0 && options.allowEmpty !== true) {
    throw new MemValidationError(
      field,
      `[mem/store] ${field} is empty; pass at least one message.`,
    );
  }
  const seen = new Set<string>();
  return messages.map((message: unknown, i) => {
    const copy = parseMessage(message, `${field}[${i}]`);
    if (seen.has(copy.id)) {
      throw new MemValidationError(
        `${field}[${i}].id`,
        `[mem/store] ${field}[${i}].id ${JSON.stringify(copy.id)} appears twice in the batch; message ids are unique per session.`,
      );
    }
    seen.add(copy.id);
    return copy;
  });
}

/** Checks one counted message (see `parseCountedMessages`). */
export function parseMessage(message: unknown, field: string): CountedMessage {
  const parsed = parseWith(countedMessageSchema, message, field);
  // zod drops an own `__proto__` key from records; copy metadata from the caller's object instead.
  const metadata = (message as { metadata?: unknown }).metadata;
  const source: unknown = metadata === undefined ? parsed : { ...parsed, metadata };
  // cloneJsonValue drops `undefined` properties, so the copy fits the exact optional types.
  return cloneJsonValue(source, field) as CountedMessage;
}

export function parseIdempotencyKey(options: unknown): string {
  return parseAppendOptions(options).idempotencyKey;
}

/**
 * Checks `append` options: the idempotency key and the optional `userId` (session id rules,
 * field `userId`). Returns a copy without undefined properties.
 */
export function parseAppendOptions(options: unknown): AppendOptions {
  const { idempotencyKey, userId } = parseWith(appendOptionsSchema, options ?? {}, '');
  return userId === undefined ? { idempotencyKey } : { idempotencyKey, userId };
}

export function parseReadOptions(options: unknown): ReadOptions {
  return (
    usualReadOptions(options) ?? stripUndefined(parseWith(readOptionsSchema, options ?? {}, ''))
  );
}

const isCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

/**
 * The read options every valid call passes, checked in a few property reads (a read runs per
 * engine call; the schema costs microseconds). Undefined for anything else, which the schema
 * then checks and reports.
 */
function usualReadOptions(options: unknown): ReadOptions | undefined {
  if (options === undefined || options === null) return {};
  if (typeof options !== 'object' || Array.isArray(options)) return undefined;
  const { afterSeq, beforeSeq, limit, from } = options as Record<string, unknown>;
  const out: ReadOptions = {};
  if (afterSeq !== undefined) {
    if (!isCount(afterSeq)) return undefined;
    out.afterSeq = afterSeq;
  }
  if (beforeSeq !== undefined) {
    if (!isCount(beforeSeq)) return undefined;
    out.beforeSeq = beforeSeq;
  }
  if (limit !== undefined) {
    if (!isCount(limit)) return undefined;
    out.limit = limit;
  }
  if (from !== undefined) {
    if (from !== 'start' && from !== 'end') return undefined;
    out.from = from;
  }
  return out;
}

export function parseListOptions(options: unknown): ListOptions {
  return stripUndefined(parseWith(listOptionsSchema, options ?? {}, ''));
}

/**
 * Checks a `writeUserFacts` input: `expectedVersion` a count, at most `MAX_USER_FACTS` facts,
 * each well-formed (`facts[3].text`, `facts[0].sourceMessageIds[2]`), ids unique
 * (`facts[i].id`). Returns a deep copy without undefined properties, facts in the given order.
 */
export function parseUserFactsWrite(input: unknown): WriteUserFactsInput {
  const parsed = parseWith(writeUserFactsInputSchema, input, '');
  const seen = new Set<string>();
  parsed.facts.forEach((fact, i) => {
    if (seen.has(fact.id)) {
      throw new MemValidationError(
        `facts[${i}].id`,
        `[mem/store] facts[${i}].id ${JSON.stringify(fact.id)} appears twice; fact ids are unique per user.`,
      );
    }
    seen.add(fact.id);
  });
  const facts = cloneJsonValue(parsed.facts as unknown, 'facts') as UserFact[];
  return { expectedVersion: parsed.expectedVersion, facts };
}

/**
 * Checks a compaction request on its own (the store then checks it against the session): the
 * summary is a counted `system` message with `metadata.kind === 'summary'`, and the record
 * describes it (`record.id === summary.id`, `record.throughSeq === throughSeq`).
 */
export function parseCompactInput(input: unknown): CompactInput {
  const parsed = parseWith(compactInputSchema, input, '');
  const summary = parseMessage((input as { summary: unknown }).summary, 'summary');
  if (!isSummaryMessage(summary)) {
    throw new MemValidationError(
      'summary',
      "[mem/store] summary must be a system message with metadata.kind === 'summary'.",
    );
  }
  const record = cloneJsonValue(parsed.record as unknown, 'record') as SummaryRecord;
  if (record.id !== summary.id) {
    throw new MemValidationError('record.id', '[mem/store] record.id must equal summary.id.');
  }
  if (record.throughSeq !== parsed.throughSeq) {
    throw new MemValidationError(
      'record.throughSeq',
      '[mem/store] record.throughSeq must equal throughSeq.',
    );
  }
  if (record.fromSeq > record.throughSeq) {
    throw new MemValidationError(
      'record.fromSeq',
      '[mem/store] record.fromSeq must not be after record.throughSeq.',
    );
  }
  checkKeepSeqs(parsed.keepSeqs, parsed.throughSeq);
  return {
    expectedEpoch: parsed.expectedEpoch,
    throughSeq: parsed.throughSeq,
    ...(parsed.keepSeqs === undefined ? {} : { keepSeqs: parsed.keepSeqs }),
    summary,
    record,
  };
}

export function parseEraseInput(input: unknown): EraseInput {
  const parsed = parseWith(eraseInputSchema, input, '');
  checkKeepSeqs(parsed.keepSeqs, parsed.throughSeq);
  const { expectedEpoch, throughSeq, keepSeqs } = parsed;
  return keepSeqs === undefined
    ? { expectedEpoch, throughSeq }
    : { expectedEpoch, throughSeq, keepSeqs };
}

function checkKeepSeqs(keepSeqs: readonly number[] | undefined, throughSeq: number): void {
  if (keepSeqs?.includes(throughSeq)) {
    throw new MemValidationError(
      'keepSeqs',
      '[mem/store] keepSeqs cannot contain throughSeq; end the range at the last message that is not pinned.',
    );
  }
}

/** Checks a `flush`: the epoch the conversation was read at. */
export function parseFlushInput(input: unknown): FlushInput {
  const { expectedEpoch } = parseWith(flushInputSchema, input, '');
  return { expectedEpoch };
}

/** Checks a `replace`: the messages may be empty (the session is then emptied, not removed). */
export function parseReplaceInput(input: unknown): ReplaceInput {
  const parsed = parseWith(replaceInputSchema, input, '');
  const messages = parseCountedMessages((input as { messages: unknown }).messages, {
    allowEmpty: true,
  });
  return parsed.expectedVersion === undefined
    ? { messages }
    : { expectedVersion: parsed.expectedVersion, messages };
}

/**
 * Parses `value` with `schema`, turning a failure into one MemValidationError whose `field` is the
 * first bad path (under `root`) and whose message lists every bad path.
 */
export function parseWith<S extends z.ZodType>(
  schema: S,
  value: unknown,
  root: string,
  scope = 'mem/store',
): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => ({
    path: formatPath(root, issue.path),
    message: issue.message,
  }));
  const lines = issues.map((i) => `  - ${i.path || '(root)'}: ${i.message}`).join('\n');
  throw new MemValidationError(
    issues[0]?.path || root || '(root)',
    `[${scope}] invalid input (${issues.length} problem${issues.length === 1 ? '' : 's'}); fix these paths:\n${lines}`,
    { cause: result.error },
  );
}

/** `['messages', 0, 'id']` under root `''` -> `messages[0].id`. */
export function formatPath(root: string, path: readonly PropertyKey[]): string {
  let out = root;
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? String(segment) : `.${String(segment)}`;
  }
  return out;
}

function stripUndefined<T extends object>(value: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as {
    [K in keyof T]: Exclude<T[K], undefined>;
  };
}
