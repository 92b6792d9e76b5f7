import type { FactOperation, UserFact } from '@mem/core';
import { MAX_USER_FACT_LENGTH } from '@mem/core/backend';
import { checkSummary, type SummarySource } from '@mem/core/summarize';
import { z } from 'zod';
import { extractJsonObject } from '../chain-of-density/extract-json-object.ts';
import type { ChatResponse } from '../chat-model.ts';

/** Longest `about` key a stored fact may carry. */
const MAX_ABOUT_LENGTH = 128;

/** Models write `"about": null` or `"source": ["2"]`; both mean what they say. */
const optionalText = z.preprocess((v) => (v === null ? undefined : v), z.string().optional());
const sources = z.preprocess(
  (v) => (v === null ? undefined : typeof v === 'number' || typeof v === 'string' ? [v] : v),
  z.array(z.coerce.number().int()).optional(),
);
const factId = z.union([z.string(), z.number().transform(String)]);
const operationSchema = z.discriminatedUnion('op', [
  z.object({ op: z.literal('add'), text: z.string(), about: optionalText, source: sources }),
  z.object({
    op: z.literal('update'),
    id: factId,
    text: z.string(),
    about: optionalText,
    source: sources,
  }),
  z.object({ op: z.literal('delete'), id: factId }),
]);

/** The reply of the LLM fact extractor: `{ "operations": [...] }`. */
export const factReplySchema = z.object({ operations: z.array(operationSchema) });

export type FactReply = z.output<typeof factReplySchema>;
export type FactReplyOperation = FactReply['operations'][number];

export type FactReplyResult = { ok: true; value: FactReply } | { ok: false; error: Error };

/** `{"Operations": ...}` and `{"OP": "Add"}` mean what they say: keys and `op` lower-cased. */
function lowerKeys(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => {
      const key = k.trim().toLowerCase();
      return [key, key === 'op' && typeof v === 'string' ? v.trim().toLowerCase() : v];
    }),
  );
}

/** Parses a reply: one JSON object (a code fence or prose around it tolerated) of the schema. */
export function parseFactReply(response: ChatResponse): FactReplyResult {
  if (response.finishReason === 'length') {
    return { ok: false, error: new Error('the reply was truncated (finish reason "length")') };
  }
  if (response.finishReason === 'content-filter') {
    return { ok: false, error: new Error('the reply was blocked by a content filter') };
  }
  const json = extractJsonObject(response.text);
  if (!json.ok) return json;
  const root = lowerKeys(json.value) as Record<string, unknown>;
  const operations = Array.isArray(root.operations)
    ? root.operations.map(lowerKeys)
    : root.operations;
  const parsed = factReplySchema.safeParse({ operations });
  if (!parsed.success) {
    return {
      ok: false,
      error: new Error(`schema mismatch: ${z.prettifyError(parsed.error)}`, {
        cause: parsed.error,
      }),
    };
  }
  return { ok: true, value: parsed.data };
}

/** Why an operation of a well-formed reply was left out. */
export type DroppedFactReason =
  | 'unknown-id'
  | 'repeated-id'
  | 'empty-text'
  | 'unusable-text'
  | 'over-limit';

export interface CheckOperationsInput {
  operations: readonly FactReplyOperation[];
  facts: readonly UserFact[];
  /** `messageIds[n - 1]` is the message numbered `[n]` in the prompt. */
  messageIds: readonly string[];
  /** The exchange and the facts, for the error-text check. */
  source: SummarySource;
  maxOperations: number;
  onDrop?: ((operation: FactReplyOperation, reason: DroppedFactReason) => void) | undefined;
}

/** The fact text as stored: whitespace collapsed, trimmed, at most `MAX_USER_FACT_LENGTH`. */
function factText(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= MAX_USER_FACT_LENGTH) return flat.toWellFormed();
  const high = /[\uD800-\uDBFF]/.test(flat.charAt(MAX_USER_FACT_LENGTH - 1));
  return flat
    .slice(0, MAX_USER_FACT_LENGTH - (high ? 1 : 0))
    .trimEnd()
    .toWellFormed();
}

function aboutKey(about: string | undefined): string | undefined {
  const key = about?.replace(/\s+/g, ' ').trim().slice(0, MAX_ABOUT_LENGTH).toWellFormed();
  return key === undefined || key === '' ? undefined : key;
}

function sourceIds(
  numbers: readonly number[] | undefined,
  messageIds: readonly string[],
): string[] | undefined {
  const picked = new Set<number>();
  for (const n of numbers ?? []) if (n >= 1 && n <= messageIds.length) picked.add(n);
  if (picked.size === 0) return undefined;
  return [...picked].sort((a, b) => a - b).map((n) => messageIds[n - 1]!);
}

/**
 * The operations of a well-formed reply that may reach the user's facts: each `update` and
 * `delete` names a fact of the input (once), each text is trimmed, capped at
 * `MAX_USER_FACT_LENGTH`, well-formed and passes core's `checkSummary` (`errors-only`: no error
 * text or refusal, no credential the exchange does not hold), `source` numbers become message
 * ids, and at most `maxOperations` are kept. Everything else is dropped (`onDrop` says why).
 */
export function checkOperations(input: CheckOperationsInput): FactOperation[] {
  const known = new Set(input.facts.map((f) => f.id));
  const named = new Set<string>();
  const out: FactOperation[] = [];
  const drop = (operation: FactReplyOperation, reason: DroppedFactReason) =>
    input.onDrop?.(operation, reason);
  for (const operation of input.operations) {
    if (out.length >= input.maxOperations) {
      drop(operation, 'over-limit');
      continue;
    }
    if (operation.op !== 'add') {
      if (!known.has(operation.id)) {
        drop(operation, 'unknown-id');
        continue;
      }
      if (named.has(operation.id)) {
        drop(operation, 'repeated-id');
        continue;
      }
    }
    if (operation.op === 'delete') {
      named.add(operation.id);
      out.push({ op: 'delete', id: operation.id });
      continue;
    }
    const text = factText(operation.text);
    if (text === '') {
      drop(operation, 'empty-text');
      continue;
    }
    if (!checkSummary(text, { source: input.source, gate: 'errors-only' }).usable) {
      drop(operation, 'unusable-text');
      continue;
    }
    const about = aboutKey(operation.about);
    const ids = sourceIds(operation.source, input.messageIds);
    const extra = {
      ...(about === undefined ? {} : { about }),
      ...(ids === undefined ? {} : { sourceMessageIds: ids }),
    };
    if (operation.op === 'update') {
      named.add(operation.id);
      out.push({ op: 'update', id: operation.id, text, ...extra });
    } else {
      out.push({ op: 'add', text, ...extra });
    }
  }
  return out;
}
