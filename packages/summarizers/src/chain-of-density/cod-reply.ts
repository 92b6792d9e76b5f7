import { checkSummary, type SummaryGate, type SummarySource } from '@mem/core/summarize';
import { z } from 'zod';
import type { ChatResponse } from '../chat-model.ts';
import { extractJsonObject } from './extract-json-object.ts';

/**
 * The JSON replies of the Chain of Density passes, checked with zod. Keys are matched without
 * regard to case, spaces or hyphens (`Missing_Entities`, as in the paper's prompt, is accepted).
 */

const entities = z.array(z.string().trim().min(1));
const summaryText = z.string().trim().min(1, 'the summary is empty');

/** Pass 1: the entities the summary covers, and the initial entity-sparse summary. */
export const initialReplySchema = z.object({
  entities: entities.default([]),
  summary: summaryText,
});

/** Passes 2 and later: the 1–3 entities added, and the rewritten summary. */
export const densifyReplySchema = z.object({
  missing_entities: entities,
  denser_summary: summaryText,
});

/** The paper's one-call variant: every pass's step in order. */
export const stepsReplySchema = z.object({ steps: z.array(densifyReplySchema).min(1) });

/** One parsed pass: the summary (bookkeeping removed) and the entities it reports. */
export interface CodStep {
  summary: string;
  entities: string[];
}

export type CodReplyResult<T> = { ok: true; value: T } | { ok: false; error: Error };

/** Lines where a model repeats its bookkeeping inside the summary text. */
const BOOKKEEPING_LINE = /^\s*(?:[*_#>-]+\s*)*missing[\s_-]*entities\b[^\n]*$/gim;

/** A `Denser summary:` label opening the summary. */
const SUMMARY_LABEL = /^\s*(?:[*_#]+\s*)*(?:denser\s+)?summary\s*(?:[*_]+\s*)?:[*_]*\s*/i;

/** The summary without "Missing entities: ..." lines or a "Summary:" label, trimmed. */
export function cleanSummary(text: string): string {
  return text
    .replace(BOOKKEEPING_LINE, '')
    .trim()
    .replace(SUMMARY_LABEL, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function normalizeKeys(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k
        .trim()
        .toLowerCase()
        .replace(/[\s-]+/g, '_'),
      v,
    ]),
  );
}

/**
 * A usable summary, or why it is not one: core's `checkSummary` with `gate` (the engine's
 * `summaryGate`, given in the summarize options; by default no error text or refusal, no
 * credential, and about `source`, the transcript, when given), the same check core applies again
 * before it stores a summary. A user's gate that fails is returned as its own error.
 */
function checkedSummary(
  text: string,
  source: SummarySource | undefined,
  gate: SummaryGate | undefined,
): string | Error {
  const summary = cleanSummary(text);
  if (summary.length === 0) return new Error('the summary is empty');
  const check = checkSummary(summary, {
    ...(source === undefined ? {} : { source }),
    ...(gate === undefined ? {} : { gate }),
  });
  if (check.usable) return check.text;
  return check.error ?? new UnusableSummaryError(`the summary is unusable: it ${check.reason}`);
}

/**
 * The reply parsed, but its summary failed core's `checkSummary` (error text, a key, off topic).
 * `unusable: true` tells core's fallback to report `reason: 'unusable'` rather than `'error'`.
 */
export class UnusableSummaryError extends Error {
  readonly unusable = true;
}

function parseWith<S extends z.ZodType>(
  response: ChatResponse,
  schema: S,
): CodReplyResult<z.output<S>> {
  if (response.finishReason === 'length') {
    return { ok: false, error: new Error('the reply was truncated (finish reason "length")') };
  }
  if (response.finishReason === 'content-filter') {
    return { ok: false, error: new Error('the reply was blocked by a content filter') };
  }
  const json = extractJsonObject(response.text);
  if (!json.ok) return json;
  const parsed = schema.safeParse(normalizeKeys(json.value));
  if (!parsed.success) {
    const error = new Error(`schema mismatch: ${z.prettifyError(parsed.error)}`, {
      cause: parsed.error,
    });
    return { ok: false, error };
  }
  return { ok: true, value: parsed.data };
}

function step(
  summary: string,
  found: string[],
  source: SummarySource | undefined,
  gate: SummaryGate | undefined,
): CodReplyResult<CodStep> {
  const checked = checkedSummary(summary, source, gate);
  return checked instanceof Error
    ? { ok: false, error: checked }
    : { ok: true, value: { summary: checked, entities: found } };
}

/**
 * Parses pass 1's reply `{ "entities": [...], "summary": "..." }`. With `source` (the
 * transcript, `summarySource(input)`), the summary must also be about it.
 */
export function parseInitialReply(
  response: ChatResponse,
  source?: SummarySource,
  gate?: SummaryGate,
): CodReplyResult<CodStep> {
  const parsed = parseWith(response, initialReplySchema);
  return parsed.ok ? step(parsed.value.summary, parsed.value.entities, source, gate) : parsed;
}

/** Parses a later pass's reply `{ "missing_entities": [...], "denser_summary": "..." }`. */
export function parseDensifyReply(
  response: ChatResponse,
  source?: SummarySource,
  gate?: SummaryGate,
): CodReplyResult<CodStep> {
  const parsed = parseWith(response, densifyReplySchema);
  return parsed.ok
    ? step(parsed.value.denser_summary, parsed.value.missing_entities, source, gate)
    : parsed;
}

/** Parses the one-call reply `{ "steps": [...] }`; every step must hold a usable summary. */
export function parseStepsReply(
  response: ChatResponse,
  source?: SummarySource,
  gate?: SummaryGate,
): CodReplyResult<CodStep[]> {
  const parsed = parseWith(response, stepsReplySchema);
  if (!parsed.ok) return parsed;
  const steps: CodStep[] = [];
  for (const [i, s] of parsed.value.steps.entries()) {
    const checked = step(s.denser_summary, s.missing_entities, source, gate);
    if (!checked.ok)
      return { ok: false, error: new Error(`step ${i + 1}: ${checked.error.message}`) };
    steps.push(checked.value);
  }
  return { ok: true, value: steps };
}
