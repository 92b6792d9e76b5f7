/**
 * Entity coverage of a summary: which names, numbers, dates and tool outcomes of a conversation
 * a summary still mentions. Two sources of entities, counted separately:
 * - `extractEntities`: found mechanically in any conversation (regular expressions), so the
 *   count works on user files without preparation;
 * - an answer key (`*.entities.json` beside a bundled conversation): the entities a person
 *   marked as mattering later (decisions, action items, tool outcomes with their detail).
 * A summary keeps an entity when it contains the entity's text, ignoring case.
 */
import type { Message } from '@mem/core/summarize';

export type EntityCategory = 'names' | 'numbers' | 'dates' | 'tools' | 'decisions' | 'action_items';

export interface Entity {
  category: EntityCategory;
  /** What must appear in a summary (every string of `all`, case-insensitive). */
  all: string[];
  label: string;
}

export interface AnswerKey {
  names?: string[];
  numbers?: string[];
  dates?: string[];
  tools?: { name: string; outcome: 'ok' | 'error'; detail: string }[];
  decisions?: string[];
  action_items?: string[];
}

const MONTHS =
  'January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec';
const DATE_PATTERNS = [
  /\b\d{4}-\d{2}-\d{2}\b/g,
  new RegExp(`\\b\\d{1,2}(?:st|nd|rd|th)? (?:${MONTHS})\\b`, 'g'),
  new RegExp(`\\b(?:${MONTHS}) \\d{1,2}(?:st|nd|rd|th)?\\b`, 'g'),
  /\b(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)\b/g,
  /\b\d{1,2}:\d{2}\b/g,
];
/** Ids, amounts, quantities: a token with a digit (dates and times excluded). */
const NUMBER =
  /(?:[€$£]\s?)?\b[A-Za-z]*[-#]?\d[\d.,]*(?:[-/][A-Za-z\d]+)*\b(?:\s?(?:kg|km|%|EUR|USD|GBP))?/g;
/** Capitalized words not opening a sentence, joined when adjacent ("Café Estrela"). */
const NAME = /(?<![.!?:]\s|^|["'(\n]\s*)\b\p{Lu}[\p{Ll}'’]+(?:\s+\p{Lu}[\p{Ll}'’]+)*/gu;
const NOT_NAMES = new Set(
  `${MONTHS.replaceAll('|', ' ')} I The A An And But Or If Then Yes No Ok Okay Thanks Thank Please Hi Hello Morning Also Can Could Would Should Will Let Sure Great Done Good Here There This That It We You They He She Our Your My Their What Which When Where Why How Monday Tuesday Wednesday Thursday Friday Saturday Sunday`.split(
    ' ',
  ),
);

function textOf(message: Message): string {
  const content =
    typeof message.content === 'string'
      ? message.content
      : message.content.map((p) => (p.type === 'text' ? p.text : '')).join(' ');
  const args = (message.toolCalls ?? []).map((c) => `${c.name} ${c.arguments}`).join(' ');
  return `${content} ${args}`;
}

function matches(pattern: RegExp, text: string): string[] {
  return [...text.matchAll(pattern)].map((m) => m[0].trim());
}

/** The entities found mechanically in `messages` (system prompts excluded), deduplicated. */
export function extractEntities(messages: readonly Message[]): Entity[] {
  const found = new Map<string, Entity>();
  const add = (category: EntityCategory, label: string, all = [label]) => {
    const key = `${category}:${label.toLowerCase()}`;
    if (!found.has(key)) found.set(key, { category, label, all });
  };
  for (const message of messages) {
    if (message.role === 'system') continue;
    const text = textOf(message);
    const dates = DATE_PATTERNS.flatMap((p) => matches(p, text));
    for (const date of dates) add('dates', date);
    for (const n of matches(NUMBER, text)) {
      if (n.length < 2 || dates.some((d) => d.includes(n) || n.includes(d))) continue;
      add('numbers', n);
    }
    if (message.role !== 'tool') {
      for (const name of matches(NAME, text)) if (!NOT_NAMES.has(name)) add('names', name);
    }
    if (message.role === 'tool' && message.toolName !== undefined) {
      const outcome = message.isError === true ? 'error' : 'ok';
      add('tools', `${message.toolName} (${outcome})`, [message.toolName]);
    }
  }
  return [...found.values()];
}

/** The answer key's entities, each checked to occur in the conversation. */
export function keyEntities(key: AnswerKey, conversationText: string): Entity[] {
  const haystack = conversationText.toLowerCase();
  const out: Entity[] = [];
  const plain = ['names', 'numbers', 'dates', 'decisions', 'action_items'] as const;
  for (const category of plain) {
    for (const label of key[category] ?? []) out.push({ category, label, all: [label] });
  }
  for (const tool of key.tools ?? []) {
    out.push({
      category: 'tools',
      label: `${tool.name} (${tool.outcome}): ${tool.detail}`,
      all: [tool.name, tool.detail],
    });
  }
  const missing = out.filter((e) => e.all.some((s) => !haystack.includes(s.toLowerCase())));
  if (missing.length > 0) {
    throw new Error(
      `answer key entities not in the conversation: ${missing.map((e) => JSON.stringify(e.label)).join(', ')}`,
    );
  }
  return out;
}

export function conversationText(messages: readonly Message[]): string {
  return messages.map(textOf).join('\n');
}

export interface Coverage {
  category: EntityCategory;
  total: number;
  kept: number;
}

/** Per category: how many entities there are and how many `summary` keeps. */
export function coverage(entities: readonly Entity[], summary: string): Coverage[] {
  const text = summary.toLowerCase();
  const byCategory = new Map<EntityCategory, Coverage>();
  for (const entity of entities) {
    const row = byCategory.get(entity.category) ?? { category: entity.category, total: 0, kept: 0 };
    row.total++;
    if (entity.all.every((s) => text.includes(s.toLowerCase()))) row.kept++;
    byCategory.set(entity.category, row);
  }
  return [...byCategory.values()];
}
