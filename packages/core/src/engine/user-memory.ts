import { MemValidationError } from '../errors/errors.ts';
import { changeUserFacts } from '../facts/change-user-facts.ts';
import {
  type AppliedFacts,
  capFacts,
  factKeyProblem,
  factTextProblem,
  MAX_FACT_ABOUT_LENGTH,
  MAX_FACT_ID_LENGTH,
  normalizeFactText,
} from '../facts/fact-operations.ts';
import type { KnowledgeBase } from '../knowledge/knowledge-base-spec.ts';
import type { ForgetUserResult, Store, UserFact } from '../store/store-spec.ts';
import type { EngineEvents } from './engine-events.ts';

/** What `forgetUser` removed: the store's counts and the knowledge chunks. */
export interface ForgetUserReport extends ForgetUserResult {
  /** Knowledge-base chunks removed, over every collection the profile indexes into. */
  chunks: number;
}

/** One user's memory across sessions. */
export interface UserMemory {
  readonly id: string;
  /** The user's facts, oldest first. */
  facts(): Promise<UserFact[]>;
  /**
   * Adds a fact, or with `id` (or an `about` that an existing fact has) replaces that one;
   * returns it as stored. Compare-and-swap: a concurrent update is re-read, never lost.
   */
  setFact(fact: { text: string; about?: string; id?: string }): Promise<UserFact>;
  /** Removes one fact; false when there was none with this id. */
  forgetFact(id: string): Promise<boolean>;
  /** The ids of the user's stored sessions. */
  sessions(): Promise<string[]>;
  /** `engine.forgetUser(id)`. */
  forget(): Promise<ForgetUserReport>;
}

/** What `engine.user(id)` needs of the engine. */
export interface UserMemoryParts {
  /** Where facts are kept: the engine's working store (a private one for EPHEMERAL). */
  store: Store;
  events: EngineEvents;
  now: () => number;
  newId: () => string;
  forgetUser(userId: string): Promise<ForgetUserReport>;
}

/** One user's facts and sessions; the user id is checked by the caller. */
export function createUserMemory(parts: UserMemoryParts, userId: string): UserMemory {
  const { store, events } = parts;
  const changed = (applied: AppliedFacts) => {
    const { added, updated, deleted } = applied;
    if (added.length + updated.length + deleted.length === 0) return;
    events.emit('facts:updated', { userId, added, updated, deleted });
  };
  return {
    id: userId,
    async facts() {
      return (await store.userFacts(userId)).facts;
    },
    async setFact(input) {
      const fact = checkFactInput(input);
      let stored: UserFact | undefined;
      const applied = await changeUserFacts(store, userId, (current) => {
        const result = setOne(current, fact, parts.now(), parts.newId);
        stored = result.stored;
        return result.applied;
      });
      changed(applied);
      return { ...stored!, sourceMessageIds: [...stored!.sourceMessageIds] };
    },
    async forgetFact(id) {
      checkKey(id, 'id', MAX_FACT_ID_LENGTH);
      const applied = await changeUserFacts(store, userId, (current) => {
        const facts = current.filter((f) => f.id !== id);
        const deleted = facts.length < current.length ? [id] : [];
        return { facts, added: [], updated: [], deleted };
      });
      changed(applied);
      return applied.deleted.length > 0;
    },
    sessions: () => userSessions(store, userId),
    forget: () => parts.forgetUser(userId),
  };
}

/** Every session id the store has bound to the user, over all pages. */
export async function userSessions(store: Store, userId: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await store.list({ userId, ...(cursor === undefined ? {} : { cursor }) });
    ids.push(...page.sessionIds);
    cursor = page.cursor;
  } while (cursor !== undefined);
  return ids;
}

/**
 * Erases everything of a user: the knowledge first (each of the user's sessions' chunks, which
 * covers chunks indexed before the session was bound, then every chunk carrying the user), then
 * the stores (sessions and facts). A run killed half-way is finished by running it again: the
 * stores still list the sessions whose chunks may remain.
 */
export async function forgetUserData(
  userId: string,
  stores: readonly Store[],
  knowledgeBase: KnowledgeBase | undefined,
  collections: readonly string[],
): Promise<ForgetUserReport> {
  let chunks = 0;
  if (knowledgeBase !== undefined && collections.length > 0) {
    for (const store of stores) {
      for (const sessionId of await userSessions(store, userId)) {
        for (const collectionId of collections) {
          chunks += await knowledgeBase.delete(collectionId, { sessionId });
        }
      }
    }
    for (const collectionId of collections) {
      chunks += await knowledgeBase.delete(collectionId, { userId });
    }
  }
  const report = { sessions: 0, messages: 0, facts: 0, chunks };
  for (const store of stores) {
    const removed = await store.forgetUser(userId);
    report.sessions += removed.sessions;
    report.messages += removed.messages;
    report.facts += removed.facts;
  }
  return report;
}

interface FactInput {
  text: string;
  about?: string;
  id?: string;
}

function checkFactInput(input: unknown): FactInput {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new MemValidationError(
      'fact',
      '[mem/core] setFact takes { text, about?, id? }, e.g. { text: "Lives in Lisbon.", about: "location" }.',
    );
  }
  const { text, about, id } = input as Record<string, unknown>;
  if (typeof text !== 'string') {
    throw new MemValidationError(
      'fact.text',
      `[mem/core] fact.text must be a string (one sentence about the user), got ${typeof text}.`,
    );
  }
  const normalized = normalizeFactText(text);
  const problem = factTextProblem(normalized, false);
  if (problem !== undefined) {
    throw new MemValidationError(
      'fact.text',
      `[mem/core] fact.text ${problem}: pass one sentence about the user.`,
    );
  }
  const out: FactInput = { text: normalized };
  if (about !== undefined) {
    checkKey(about, 'fact.about', MAX_FACT_ABOUT_LENGTH);
    out.about = about.trim();
    checkKey(out.about, 'fact.about', MAX_FACT_ABOUT_LENGTH);
  }
  if (id !== undefined) {
    checkKey(id, 'fact.id', MAX_FACT_ID_LENGTH);
    out.id = id;
  }
  return out;
}

function checkKey(value: unknown, field: string, max: number): asserts value is string {
  const problem =
    typeof value === 'string'
      ? factKeyProblem(value, max)
      : `must be a string, got ${typeof value}`;
  if (problem !== undefined) {
    throw new MemValidationError(
      field,
      `[mem/core] ${field} ${problem}: pass 1-${max} characters of text.`,
    );
  }
}

/**
 * `setFact` on the facts read: replaces the fact with `id` (else the one with `about`), or adds
 * one; a fact with the same `about` as the one set goes (the new one supersedes it). A fact set
 * through the API has no session and no source messages.
 */
function setOne(
  current: readonly UserFact[],
  input: FactInput,
  now: number,
  newId: () => string,
): { applied: AppliedFacts; stored: UserFact } {
  const facts = current.map((f) => ({ ...f, sourceMessageIds: [...f.sourceMessageIds] }));
  const added = new Set<string>();
  const updated = new Set<string>();
  const deleted = new Set<string>();
  let target =
    input.id !== undefined
      ? facts.find((f) => f.id === input.id)
      : input.about !== undefined
        ? facts.find((f) => f.about === input.about)
        : facts.find((f) => f.text === input.text && f.about === undefined);
  if (target === undefined) {
    target = {
      id: input.id ?? `fact_${newId()}`,
      text: input.text,
      ...(input.about === undefined ? {} : { about: input.about }),
      sourceMessageIds: [],
      createdAt: now,
      updatedAt: now,
    };
    facts.push(target);
    added.add(target.id);
  } else if (target.text !== input.text || (input.about ?? target.about) !== target.about) {
    target.text = input.text;
    if (input.about !== undefined) target.about = input.about;
    delete target.sessionId;
    target.sourceMessageIds = [];
    target.updatedAt = now;
    updated.add(target.id);
  }
  const kept = target;
  if (input.about !== undefined) {
    for (let i = facts.length - 1; i >= 0; i--) {
      const other = facts[i]!;
      if (other !== kept && other.about === input.about) {
        facts.splice(i, 1);
        deleted.add(other.id);
      }
    }
  }
  return { applied: capFacts(facts, added, updated, deleted), stored: kept };
}
