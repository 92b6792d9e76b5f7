import { MemError, type MemErrorCode, type Role } from '@mem/core';
import type {
  CompactInput,
  CountedMessage,
  Store,
  StoredMessage,
  SummaryRecord,
} from '@mem/core/backend';
import { expect } from 'vitest';

/** createdAt of the first fixture message; later ones are a second apart. */
export const BASE_TIME = 1_700_000_000_000;

let counter = 0;
const RUN = Math.random().toString(36).slice(2, 8);

/** An id unique within the test run, e.g. `user-1f-k3x9ab`. */
export function uniqueId(prefix: string): string {
  counter += 1;
  return `${prefix}-${counter.toString(36)}-${RUN}`;
}

/** A counted text message with a unique id. */
export function textMessage(
  text: string,
  options: { role?: Role; tokenCount?: number; id?: string } = {},
): CountedMessage {
  counter += 1;
  return {
    id: options.id ?? uniqueId(options.role ?? 'user'),
    role: options.role ?? 'user',
    content: text,
    createdAt: BASE_TIME + counter * 1_000,
    tokenCount: options.tokenCount ?? 3 + (counter % 5),
  };
}

/** `count` alternating user/assistant messages labelled `label 1..count`. */
export function conversation(count: number, label = 'msg'): CountedMessage[] {
  return Array.from({ length: count }, (_, i) =>
    textMessage(`${label} ${i + 1}`, { role: i % 2 === 0 ? 'user' : 'assistant' }),
  );
}

/** What a store should return for `messages` appended from `firstSeq` on. */
export function numbered(messages: readonly CountedMessage[], firstSeq: number): StoredMessage[] {
  return messages.map((m, i) => ({ ...m, seq: firstSeq + i }));
}

export function sumTokens(messages: readonly { tokenCount: number }[]): number {
  return messages.reduce((sum, m) => sum + m.tokenCount, 0);
}

/** Appends `messages` under a fresh idempotency key. */
export function append(store: Store, sessionId: string, messages: CountedMessage[]) {
  return store.append(sessionId, messages, { idempotencyKey: uniqueId('key') });
}

/**
 * Plans a compaction of every active message with `seq <= throughSeq` the way a long-term
 * strategy does: read the session (epoch included), build the summary and a truthful record.
 */
export async function planCompaction(
  store: Store,
  sessionId: string,
  throughSeq: number,
  options: { id?: string; tokenCount?: number; keepSeqs?: number[] } = {},
): Promise<CompactInput> {
  const { epoch, messages } = await store.read(sessionId);
  const summaryIds = new Set((await store.summaries(sessionId)).map((r) => r.id));
  const keep = new Set(options.keepSeqs ?? []);
  const replaced = messages.filter((m) => m.seq <= throughSeq && !keep.has(m.seq));
  const id = options.id ?? uniqueId('summary');
  const tokenCount = options.tokenCount ?? 4;
  const originalTokenCount = sumTokens(replaced);
  const createdAt = BASE_TIME + 10_000_000 + counter;
  const previousSummaryId = replaced.filter((m) => summaryIds.has(m.id)).at(-1)?.id;
  const summary: CountedMessage = {
    id,
    role: 'system',
    content: `Summary of ${replaced.map((m) => m.id).join(', ')}`,
    createdAt,
    tokenCount,
    metadata: { kind: 'summary' },
  };
  const record: SummaryRecord = {
    id,
    originalMessageIds: replaced.map((m) => m.id),
    fromSeq: replaced[0]?.seq ?? throughSeq,
    throughSeq,
    originalTokenCount,
    tokenCount,
    compressionRatio: originalTokenCount / tokenCount,
    timeRange: {
      start: Math.min(...replaced.map((m) => m.createdAt)),
      end: Math.max(...replaced.map((m) => m.createdAt)),
    },
    createdAt,
    ...(previousSummaryId === undefined ? {} : { previousSummaryId }),
  };
  const keepSeqs = options.keepSeqs === undefined ? {} : { keepSeqs: options.keepSeqs };
  return { expectedEpoch: epoch, throughSeq, ...keepSeqs, summary, record };
}

/**
 * Every session id of `store.list` (of `userId` only, when given), page by page, checking that
 * each page respects `limit`.
 */
export async function listAll(store: Store, limit?: number, userId?: string): Promise<string[][]> {
  const pages: string[][] = [];
  let cursor: string | undefined;
  for (let guard = 0; guard < 10_000; guard++) {
    const page = await store.list({
      ...(cursor === undefined ? {} : { cursor }),
      ...(limit === undefined ? {} : { limit }),
      ...(userId === undefined ? {} : { userId }),
    });
    if (limit !== undefined) expect(page.sessionIds.length).toBeLessThanOrEqual(limit);
    pages.push(page.sessionIds);
    if (page.cursor === undefined) return pages;
    expect(page.cursor).toBeTypeOf('string');
    cursor = page.cursor;
  }
  throw new Error('list never returned a last page');
}

/**
 * Awaits `promise`, expects it to reject with a MemError carrying `code` (and `field`, for
 * validation errors, when given), and returns the error. Uses `MemError.isInstance`, which works
 * across copies of `@mem/core`.
 */
export async function expectMemError(
  promise: Promise<unknown>,
  code: MemErrorCode,
  field?: string,
): Promise<MemError> {
  const outcome = await promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  if (outcome.ok) {
    expect.fail(
      `expected a ${code} MemError, but the call resolved with ${safeJson(outcome.value)}`,
    );
  }
  const { error } = outcome;
  expect(MemError.isInstance(error), `expected a MemError, got ${String(error)}`).toBe(true);
  const memError = error as MemError;
  expect(memError.code, memError.message).toBe(code);
  if (field !== undefined) expect((memError as MemError & { field?: unknown }).field).toBe(field);
  return memError;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
