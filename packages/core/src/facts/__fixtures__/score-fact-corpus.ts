import { readFileSync } from 'node:fs';
import type { StoredMessage, UserFact } from '../../store/store-spec.ts';
import type { FactExtractor, FactOperation } from '../fact-extractor.ts';

/**
 * The fact corpora (written for mem): user messages labelled with the facts they state about
 * their author. `fact-corpus.json` is the set the rules were tuned on; the held-out sets were
 * each written after a round of tuning and measured once (their first figures are in their
 * descriptions; set 1's misses were read for the second round). Scoring: an expected `{about, value}` is found when
 * an `add`/`update` has that `about` (any `remember:` key for a `remember:` label) and a text that
 * contains the value (case-insensitive); an expected delete when its id is deleted. Every other
 * operation is a false fact.
 */

export interface CorpusItem {
  id: string;
  lang: string;
  kind: string;
  text: string;
  expect: { about: string; value: string }[];
  facts?: { id: string; about: string; text: string }[];
  expectDelete?: string[];
}

export interface ItemScore {
  item: CorpusItem;
  ops: FactOperation[];
  expected: number;
  found: number;
  /** Operations that state nothing the message says (or the wrong thing). */
  falseOps: FactOperation[];
}

export const CORPUS_FILES = {
  tuning: new URL('./fact-corpus.json', import.meta.url),
  heldout: new URL('./fact-corpus-heldout.json', import.meta.url),
  heldout2: new URL('./fact-corpus-heldout-2.json', import.meta.url),
  heldout3: new URL('./fact-corpus-heldout-3.json', import.meta.url),
} as const;

export function loadFactCorpus(file: URL): CorpusItem[] {
  return (JSON.parse(readFileSync(file, 'utf8')) as { items: CorpusItem[] }).items;
}

const loose = (s: string) => s.toLowerCase().normalize('NFC').replace(/\s+/g, ' ').trim();

export function inputOf(item: CorpusItem, now = 1_700_000_000_000) {
  const message = (
    id: string,
    role: 'user' | 'assistant',
    content: string,
    seq: number,
  ): StoredMessage => ({
    id,
    role,
    content,
    createdAt: now,
    seq,
    tokenCount: 1,
  });
  const facts: UserFact[] = (item.facts ?? []).map((f) => ({
    ...f,
    sourceMessageIds: [],
    createdAt: now - 1000,
    updatedAt: now - 1000,
  }));
  return {
    userId: 'corpus-user',
    sessionId: 'corpus-session',
    now,
    facts,
    // The answer repeats a statement in the first person: the extractor must not read it.
    messages: [
      message('u1', 'user', item.text, 1),
      message('a1', 'assistant', 'Noted. I live in Paris and my name is Assistant.', 2),
    ],
  };
}

function matches(op: FactOperation, e: { about: string; value: string }): boolean {
  if (op.op === 'delete' || op.about === undefined) return false;
  const aboutOk = e.about.startsWith('remember:')
    ? op.about.startsWith('remember:')
    : op.about === e.about;
  return aboutOk && loose(op.text).includes(loose(e.value));
}

export function scoreItem(item: CorpusItem, ops: FactOperation[]): ItemScore {
  const deletes = new Set(item.expectDelete ?? []);
  let found = 0;
  for (const e of item.expect) if (ops.some((op) => matches(op, e))) found++;
  for (const id of deletes) if (ops.some((op) => op.op === 'delete' && op.id === id)) found++;
  const falseOps = ops.filter((op) =>
    op.op === 'delete' ? !deletes.has(op.id) : !item.expect.some((e) => matches(op, e)),
  );
  return { item, ops, expected: item.expect.length + deletes.size, found, falseOps };
}

export async function scoreCorpus(extractor: FactExtractor, items: readonly CorpusItem[]) {
  const signal = new AbortController().signal;
  const scores: ItemScore[] = [];
  for (const item of items)
    scores.push(scoreItem(item, await extractor.extract(inputOf(item), { signal })));
  return scores;
}

export interface Rates {
  items: number;
  expected: number;
  found: number;
  /** found / expected (1 when nothing was expected). */
  recall: number;
  /** Items with at least one false fact, of all items. */
  itemsWithFalseFacts: number;
  falseRate: number;
}

export function rates(scores: readonly ItemScore[]): Rates {
  const expected = scores.reduce((n, s) => n + s.expected, 0);
  const found = scores.reduce((n, s) => n + s.found, 0);
  const withFalse = scores.filter((s) => s.falseOps.length > 0).length;
  return {
    items: scores.length,
    expected,
    found,
    recall: expected === 0 ? 1 : found / expected,
    itemsWithFalseFacts: withFalse,
    falseRate: scores.length === 0 ? 0 : withFalse / scores.length,
  };
}

const FIVE = new Set(['en', 'de', 'fr', 'es', 'pt']);
/** `en`, `de`, `fr`, `es`, `pt`, or `other` for every other language. */
export const languageGroup = (lang: string) => (FIVE.has(lang) ? lang : 'other');
/** A message that states something, or one of the kinds that must state nothing. */
export const kindGroup = (item: CorpusItem) =>
  item.expect.length + (item.expectDelete?.length ?? 0) > 0 ? 'statement' : 'negative';
