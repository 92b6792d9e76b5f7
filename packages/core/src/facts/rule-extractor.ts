import { messageText } from '../model/message.ts';
import type { UserFact } from '../store/store-spec.ts';
import type { FactExtractor, FactOperation } from './fact-extractor.ts';
import { factTextProblem } from './fact-operations.ts';
import type { Candidate } from './rule-pattern.ts';
import { findStatements } from './rule-statements.ts';

export interface RuleFactExtractorOptions {
  /** Characters read from the start of each user message (default 4,000). */
  maxCharsPerMessage?: number;
}

/** Lower case, one space, no trailing punctuation: for comparing a value with a fact's text. */
const loose = (s: string) =>
  s
    .toLowerCase()
    .normalize('NFC')
    .replace(/\s+/g, ' ')
    .replace(/[.!?]+$/, '')
    .trim();

/** Something to remember that is a password, a PIN or a card: never shown in every prompt. */
const CREDENTIAL =
  /\b(?:password|passwort|kennwort|mot de passe|contraseña|senha|passcode|pin|api key|token|secret|credentials?|iban|credit card|card number|cvv)\b/iu;
const isCredential = (about: string, value: string) =>
  about.startsWith('remember:') && CREDENTIAL.test(value);

interface Pending {
  about: string;
  text: string;
  value: string;
  messageIds: string[];
}

/**
 * Turns the statements of an interaction into operations on the user's facts: the newest
 * statement about a thing wins; a fact with the same `about` is updated in place (its id kept);
 * a retraction (`i don't live in Paris any more`) deletes the fact it names and nothing else.
 */
export function resolveOperations(
  found: readonly { candidate: Candidate; messageId: string }[],
  facts: readonly UserFact[],
): FactOperation[] {
  const pending = new Map<string, Pending>();
  const deleted = new Set<string>();
  const named = (fact: UserFact, value: string | undefined) =>
    value === undefined || loose(fact.text).includes(loose(value));
  for (const { candidate: c, messageId } of found) {
    if (c.kind === 'set') {
      pending.delete(c.about);
      pending.set(c.about, {
        about: c.about,
        text: c.text,
        value: c.value,
        messageIds: [messageId],
      });
    } else if (c.kind === 'retract') {
      const p = pending.get(c.about);
      if (p !== undefined && (c.value === undefined || loose(p.value) === loose(c.value))) {
        pending.delete(c.about);
      }
      for (const fact of facts)
        if (fact.about === c.about && named(fact, c.value)) deleted.add(fact.id);
    } else if (loose(c.value).length >= 3) {
      for (const fact of facts) if (loose(fact.text).includes(loose(c.value))) deleted.add(fact.id);
    }
  }
  const ops: FactOperation[] = [];
  const updated = new Set<string>();
  for (const p of pending.values()) {
    const existing = facts.findLast((f) => f.about === p.about);
    if (existing !== undefined) {
      updated.add(existing.id);
      if (existing.text === p.text && !deleted.has(existing.id)) continue;
      ops.push({
        op: 'update',
        id: existing.id,
        text: p.text,
        about: p.about,
        sourceMessageIds: p.messageIds,
      });
    } else ops.push({ op: 'add', text: p.text, about: p.about, sourceMessageIds: p.messageIds });
  }
  for (const id of deleted) if (!updated.has(id)) ops.push({ op: 'delete', id });
  return ops;
}

/**
 * The deterministic fact extractor (`rules`, no model): explicit self-statements in the user's
 * messages of one finished interaction — name, where they live and come from, work, family and
 * pets, likes and dislikes, allergies and diet, `remember that ...` — and corrections, which
 * supersede the older fact about the same thing. English, German, French, Spanish, Portuguese.
 * Never reads assistant or tool messages; questions, conditionals, other people, quotations,
 * code and jokes state nothing. Reads at most `maxCharsPerMessage` characters of each message.
 */
export function createRuleFactExtractor(options: RuleFactExtractorOptions = {}): FactExtractor {
  const maxChars = options.maxCharsPerMessage ?? 4_000;
  return {
    specificationVersion: 'mem.fact-extractor.v1',
    id: 'rules',
    extract(input, { signal }) {
      const found: { candidate: Candidate; messageId: string }[] = [];
      for (const message of input.messages) {
        if (signal.aborted) break;
        if (message.role !== 'user') continue;
        for (const candidate of findStatements(messageText(message), maxChars)) {
          // A credential or an error text is never kept (the engine would refuse the whole result).
          if (
            candidate.kind === 'set' &&
            (factTextProblem(candidate.text) !== undefined ||
              isCredential(candidate.about, candidate.value))
          ) {
            continue;
          }
          found.push({ candidate, messageId: message.id });
        }
      }
      return Promise.resolve(resolveOperations(found, input.facts));
    },
  };
}
