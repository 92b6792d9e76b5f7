import { z } from 'zod';
import { MAX_USER_FACT_LENGTH, MAX_USER_FACTS, type UserFact } from '../store/store-spec.ts';
import { looksLikeErrorText } from '../summarize/error-text.ts';
import { secretsNotIn } from '../summarize/secret-text.ts';
import type { FactOperation } from './fact-extractor.ts';

/** Longest fact id and `about` key, in UTF-16 code units (Store v3's `UserFact`). */
export const MAX_FACT_ID_LENGTH = 256;
export const MAX_FACT_ABOUT_LENGTH = 128;

/** What `extract()` must return, said once for every error about it. */
export const FACT_OPERATIONS_EXPECTED =
  'extract() must resolve to an array of operations: { op: "add", text, about?, sourceMessageIds? }, ' +
  '{ op: "update", id, text, about?, sourceMessageIds? } or { op: "delete", id }, where text is one ' +
  `sentence about the user (1-${MAX_USER_FACT_LENGTH} characters, not an error message or refusal)`;

/** True when `text` holds a C0 control character or DEL. */
function hasControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/**
 * A fact's text as stored: whitespace runs (line breaks included) become one space, so a fact is
 * one line of the facts block; trimmed.
 */
export function normalizeFactText(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * Why `text` cannot be a fact's text (read after "text "), or undefined. `errorText`: also refuse
 * what reads like an error message or refusal, or holds a credential (for an extractor's output,
 * not for the app's own).
 */
export function factTextProblem(text: string, errorText = true): string | undefined {
  if (text.length === 0) return 'is empty';
  if (text.length > MAX_USER_FACT_LENGTH) {
    return `is ${text.length} characters long; the limit is ${MAX_USER_FACT_LENGTH}`;
  }
  if (!text.isWellFormed()) return 'holds a lone UTF-16 surrogate (not valid Unicode)';
  if (hasControl(text)) return 'holds a control character';
  if (!errorText) return undefined;
  if (looksLikeErrorText(text)) return 'looks like an error message or refusal, not a fact';
  // A credential would be shown in every prompt of the user from then on.
  if (secretsNotIn(text, '').length > 0) return 'holds what looks like an API key or token';
  return undefined;
}

/** Why `value` cannot be a fact id (or, with `max` 128, an `about` key), or undefined. */
export function factKeyProblem(value: string, max: number): string | undefined {
  if (value.length === 0) return 'is empty';
  if (value.length > max) return `is ${value.length} characters long; the limit is ${max}`;
  if (!value.isWellFormed()) return 'holds a lone UTF-16 surrogate (not valid Unicode)';
  if (hasControl(value)) return 'holds a control character';
  return undefined;
}

const text = z.string().transform((value, zctx) => {
  const normalized = normalizeFactText(value);
  const problem = factTextProblem(normalized);
  if (problem !== undefined) zctx.addIssue({ code: 'custom', message: `text ${problem}` });
  return normalized;
});
const key = (max: number, what: string) =>
  z.string().superRefine((value, zctx) => {
    const problem = factKeyProblem(value, max);
    if (problem !== undefined) zctx.addIssue({ code: 'custom', message: `${what} ${problem}` });
  });
const about = z
  .string()
  .transform((value) => value.trim())
  .pipe(key(MAX_FACT_ABOUT_LENGTH, 'about'));
const sources = z.array(z.string()).max(MAX_USER_FACTS);

const operationSchema = z.discriminatedUnion('op', [
  z.object({
    op: z.literal('add'),
    text,
    about: about.optional(),
    sourceMessageIds: sources.optional(),
  }),
  z.object({
    op: z.literal('update'),
    id: key(MAX_FACT_ID_LENGTH, 'id'),
    text,
    about: about.optional(),
    sourceMessageIds: sources.optional(),
  }),
  z.object({ op: z.literal('delete'), id: key(MAX_FACT_ID_LENGTH, 'id') }),
]);
const operationsSchema = z.array(operationSchema).max(MAX_USER_FACTS);

/**
 * An extractor's result checked (zod: the shape, each text one well-formed sentence that is not
 * an error text or refusal, ids and keys within bounds): the operations normalized, or what is
 * wrong with it (one line per problem, at most 5).
 */
export function checkFactOperations(
  value: unknown,
): { ok: true; operations: FactOperation[] } | { ok: false; problem: string } {
  const parsed = operationsSchema.safeParse(value);
  if (parsed.success) return { ok: true, operations: parsed.data as FactOperation[] };
  const problems = parsed.error.issues.slice(0, 5).map((issue) => {
    const path = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`));
    return `result${path.join('')}: ${issue.message}`;
  });
  return { ok: false, problem: problems.join('; ') };
}

/** Where the operations come from: the interaction they were extracted from. */
export interface FactSource {
  sessionId?: string;
  /** Ids of the interaction's messages: `sourceMessageIds` may name only these. */
  messageIds: readonly string[];
  /** Sources of a fact that names none: the interaction's user messages. */
  defaultSourceIds: readonly string[];
  now: number;
  newId: () => string;
}

export interface AppliedFacts {
  facts: UserFact[];
  added: string[];
  updated: string[];
  deleted: string[];
}

/**
 * Applies operations to a user's facts (a pure function: run again on a re-read after a
 * conflict). `add` with the `about` of an existing fact updates that fact, and an `add` of a text
 * the user's facts already hold changes nothing; `update` and `delete` of an unknown id are
 * skipped. An updated fact keeps its id and `createdAt`; `updatedAt` is `now`. Facts over
 * `MAX_USER_FACTS` go, least recently updated first.
 */
export function applyFactOperations(
  current: readonly UserFact[],
  operations: readonly FactOperation[],
  source: FactSource,
): AppliedFacts {
  const facts = current.map((f) => ({ ...f, sourceMessageIds: [...f.sourceMessageIds] }));
  const added = new Set<string>();
  const updated = new Set<string>();
  const deleted = new Set<string>();
  const known = new Set(source.messageIds);
  const sourcesOf = (ids: readonly string[] | undefined): string[] => {
    const named = (ids ?? []).filter((id) => known.has(id));
    return [...new Set(named.length > 0 ? named : source.defaultSourceIds)];
  };
  const rewrite = (fact: UserFact, text: string, about: string | undefined, ids?: string[]) => {
    fact.text = text;
    if (about !== undefined) fact.about = about;
    if (source.sessionId !== undefined) fact.sessionId = source.sessionId;
    fact.sourceMessageIds = sourcesOf(ids);
    fact.updatedAt = source.now;
    if (!added.has(fact.id)) updated.add(fact.id);
  };
  for (const op of operations) {
    if (op.op === 'delete') {
      const at = facts.findIndex((f) => f.id === op.id);
      if (at < 0) continue;
      facts.splice(at, 1);
      if (!added.delete(op.id)) deleted.add(op.id);
      updated.delete(op.id);
      continue;
    }
    const target =
      op.op === 'update'
        ? facts.find((f) => f.id === op.id)
        : op.about === undefined
          ? undefined
          : facts.find((f) => f.about === op.about);
    if (op.op === 'update' && target === undefined) continue;
    if (target !== undefined) {
      if (target.text !== op.text || (op.about !== undefined && target.about !== op.about)) {
        rewrite(target, op.text, op.about, op.sourceMessageIds);
      }
      continue;
    }
    if (facts.some((f) => f.text === op.text)) continue;
    const fact: UserFact = {
      id: `fact_${source.newId()}`,
      text: op.text,
      ...(op.about === undefined ? {} : { about: op.about }),
      ...(source.sessionId === undefined ? {} : { sessionId: source.sessionId }),
      sourceMessageIds: sourcesOf(op.sourceMessageIds),
      createdAt: source.now,
      updatedAt: source.now,
    };
    facts.push(fact);
    added.add(fact.id);
  }
  return capFacts(facts, added, updated, deleted);
}

/** The result of a change, with facts over `MAX_USER_FACTS` gone, least recently updated first. */
export function capFacts(
  facts: UserFact[],
  added: Set<string>,
  updated: Set<string>,
  deleted: Set<string>,
): AppliedFacts {
  while (facts.length > MAX_USER_FACTS) {
    let oldest = 0;
    for (let i = 1; i < facts.length; i++) {
      if (facts[i]!.updatedAt < facts[oldest]!.updatedAt) oldest = i;
    }
    const [gone] = facts.splice(oldest, 1);
    if (!added.delete(gone!.id)) deleted.add(gone!.id);
    updated.delete(gone!.id);
  }
  return { facts, added: [...added], updated: [...updated], deleted: [...deleted] };
}
