import { z } from 'zod';
import { formatPath } from '../../config/parse-profile.ts';
import { MemValidationError } from '../../errors/errors.ts';
import { MemError } from '../../errors/mem-error.ts';
import { cloneJsonValue } from '../../store/json-value.ts';
import { assertValidSessionId } from '../../store/validate-ids.ts';
import type { MemoryEntry, MemorySessionState, MemorySummary } from './memory-entry.ts';

const date = z
  .union([z.date(), z.iso.datetime({ offset: true }), z.number().finite()], {
    error: 'expected a Date, an ISO 8601 date-time string or ms since the epoch',
  })
  .transform((v) => new Date(v))
  .pipe(z.date({ error: 'expected a valid date' }));
const id = z.string().min(1, 'must not be empty').max(256, 'must be at most 256 characters');
const count = z.int().nonnegative();

const entrySchema = z.strictObject({
  id,
  type: z.enum(['message', 'tool_call', 'tool_result', 'context', 'summary']),
  role: z.enum(['user', 'assistant', 'system']),
  content: z.string(),
  timestamp: date,
  tokenCount: count,
  compressed: z.boolean(),
  summaryId: id.optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});

const summarySchema = z.strictObject({
  id,
  content: z.string(),
  originalEntryIds: z.array(id).min(1, 'must name at least one entry'),
  tokenCount: count,
  originalTokenCount: count,
  compressionRatio: z.number().finite().nonnegative(),
  createdAt: date,
  timeRange: z.strictObject({ start: date, end: date }),
});

const stateSchema = z.strictObject({
  sessionId: z.string(),
  entries: z.array(entrySchema),
  summaries: z.array(summarySchema),
  totalTokens: count.optional(),
});

/** A state that passed the schema: dates are Dates; `totalTokens` may be absent. */
export type ParsedState = Omit<MemorySessionState, 'totalTokens'> & { totalTokens?: number };

export interface Issue {
  path: string;
  message: string;
}

/** Throws one MemValidationError naming the first bad field and listing every problem. */
export function failWith(issues: readonly Issue[]): never {
  const lines = issues.map((i) => `  - ${i.path || '(root)'}: ${i.message}`).join('\n');
  throw new MemValidationError(
    issues[0]?.path ?? '',
    `[mem/core] importSession: invalid state (${issues.length} problem${issues.length === 1 ? '' : 's'}); pass what exportSession returned:\n${lines}`,
  );
}

const ROLES: Record<MemoryEntry['type'], readonly MemoryEntry['role'][]> = {
  message: ['user', 'assistant'],
  tool_call: ['assistant'],
  tool_result: ['system'],
  context: ['system'],
  summary: ['system'],
};

/** Checks one entry, and replaces its metadata by a JSON-safe copy of `raw` (the input's). */
function checkEntry(e: MemoryEntry, raw: unknown, at: string, issues: Issue[]): void {
  if (!ROLES[e.type].includes(e.role)) {
    issues.push({
      path: `${at}.role`,
      message: `a ${e.type} entry has role ${ROLES[e.type].join(' or ')}`,
    });
  }
  if (e.compressed !== (e.summaryId !== undefined)) {
    issues.push({
      path: `${at}.summaryId`,
      message: e.compressed
        ? 'a compressed entry names its summary'
        : 'only a compressed entry has one',
    });
  }
  if (raw !== undefined) {
    try {
      // From the raw input: zod's copy would turn a `__proto__` key into a prototype.
      e.metadata = cloneJsonValue(raw as Record<string, unknown>, `${at}.metadata`, 1);
    } catch (error) {
      if (!MemError.isInstance(error)) throw error;
      issues.push({ path: (error as MemValidationError).field, message: error.message });
    }
  }
  if (e.type !== 'tool_call' && e.type !== 'tool_result') return;
  const { toolName, toolCallId, isError } = e.metadata ?? {};
  if (typeof toolName !== 'string' || toolName.length === 0) {
    issues.push({ path: `${at}.metadata.toolName`, message: 'a tool entry names its tool' });
  }
  if (toolCallId !== undefined && !(typeof toolCallId === 'string' && toolCallId.length > 0)) {
    issues.push({ path: `${at}.metadata.toolCallId`, message: 'expected a non-empty string' });
  }
  if (isError !== undefined && typeof isError !== 'boolean') {
    issues.push({ path: `${at}.metadata.isError`, message: 'expected a boolean' });
  }
}

/** Checks that summaries and compressed entries link up, each summary after what it replaced. */
function checkLinks(state: ParsedState, issues: Issue[]): void {
  const position = new Map<string, number>();
  state.entries.forEach((e, i) => {
    if (position.has(e.id))
      issues.push({ path: `entries[${i}].id`, message: `${JSON.stringify(e.id)} is not unique` });
    else position.set(e.id, i);
  });
  const summaries = new Map<string, MemorySummary>();
  state.summaries.forEach((s, i) => {
    const at = position.get(s.id);
    if (summaries.has(s.id)) issues.push({ path: `summaries[${i}].id`, message: 'is not unique' });
    else if (at === undefined || state.entries[at]!.type !== 'summary') {
      issues.push({ path: `summaries[${i}].id`, message: 'names no summary entry' });
    }
    summaries.set(s.id, s);
  });
  const listed = new Set<string>();
  state.summaries.forEach((s, i) => {
    const self = position.get(s.id) ?? -1;
    let previous = -1;
    s.originalEntryIds.forEach((original, j) => {
      const at = position.get(original);
      const path = `summaries[${i}].originalEntryIds[${j}]`;
      if (at === undefined || state.entries[at]!.summaryId !== s.id || listed.has(original)) {
        issues.push({
          path,
          message: 'must name a compressed entry whose summaryId is this summary, once',
        });
      } else if (at <= previous || at >= self) {
        issues.push({
          path,
          message: 'originals are listed oldest first, all before the summary entry',
        });
      } else previous = at;
      listed.add(original);
    });
  });
  state.entries.forEach((e, i) => {
    if (e.type === 'summary' && !summaries.has(e.id)) {
      issues.push({
        path: `entries[${i}].id`,
        message: 'a summary entry has its MemorySummary in summaries',
      });
    }
    if (e.summaryId === undefined) return;
    if (!summaries.has(e.summaryId)) {
      issues.push({ path: `entries[${i}].summaryId`, message: 'names no summary in summaries' });
    } else if (!listed.has(e.id)) {
      issues.push({
        path: `entries[${i}].summaryId`,
        message: "the summary's originalEntryIds do not list this entry",
      });
    }
  });
}

/** Parses an importSession state. @throws MemValidationError listing every problem. */
export function parseImportState(input: unknown): ParsedState {
  const parsed = stateSchema.safeParse(input);
  if (!parsed.success) {
    failWith(parsed.error.issues.map((i) => ({ path: formatPath(i.path), message: i.message })));
  }
  const state = parsed.data as ParsedState;
  const issues: Issue[] = [];
  try {
    assertValidSessionId(state.sessionId);
  } catch (error) {
    issues.push({ path: 'sessionId', message: (error as Error).message });
  }
  const rawEntries = (input as { entries: Array<{ metadata?: unknown }> }).entries;
  state.entries.forEach((e, i) => {
    checkEntry(e, rawEntries[i]!.metadata, `entries[${i}]`, issues);
  });
  checkLinks(state, issues);
  const total = state.entries.reduce((sum, e) => sum + e.tokenCount, 0);
  if (state.totalTokens !== undefined && state.totalTokens !== total) {
    issues.push({
      path: 'totalTokens',
      message: `is ${state.totalTokens} but the entries sum to ${total}`,
    });
  }
  if (issues.length > 0) failWith(issues);
  return state;
}
