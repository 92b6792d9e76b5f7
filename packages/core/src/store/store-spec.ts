import type { Message } from '../model/message.ts';

/**
 * The Store contract, version 2. A spec is types only: backends implement it in their own
 * packages (`@mem/store-sqlite`, `@mem/store-redis`) and prove it with `@mem/store-test-suite`.
 *
 * Versions: a change a backend must implement gets a new version (a new `StoreVn` beside the
 * old one, a new `STORE_SPECIFICATION_VERSION`, `Store` pointing at it); core refuses a store
 * of another version with the reason (`storeProblem`). v2 = v1 + `flush` (FLUSH persistence:
 * the stored session becomes exactly its active messages). v3 = v2 + users: a session may belong
 * to a user (`AppendOptions.userId`, `SessionInfo.userId`, `list({ userId })`), a user has a
 * small document of durable facts written with compare-and-swap (`userFacts`,
 * `writeUserFacts`), and `forgetUser` erases everything of one user.
 *
 * Model: a session is an ordered log of *active* messages, each with a per-session sequence
 * number (`seq`, strictly increasing, never reused). Appends add to the end. Compaction replaces
 * a prefix of the active log (everything with `seq <= throughSeq`) by one summary; the replaced
 * messages move to the archive, linked from the summary record. Erasure removes a prefix for
 * good. `pop` removes the newest active message for good (undo of the last append, one message
 * at a time), but never a summary: the tail it takes from is what came after the newest summary.
 * Every change is atomic.
 *
 * Two counters guard concurrent writers:
 * - `version` grows on every change (append, compaction, erase, replace, flush).
 * - `epoch` grows on changes that remove or rewrite messages (compaction, erase, replace, clear,
 *   a `pop` that removed a message, and a `flush` that dropped something). Appends never change it, so a compaction planned at
 *   epoch E still commits after concurrent appends (they only add messages after `throughSeq`),
 *   but fails with `MemStoreConflictError` if another compaction, erase, replace or pop won the
 *   race. (A pop bumps the epoch because a plan may cover the popped message, and because a
 *   reader that follows the log by `afterSeq` must notice a message it holds is gone.)
 *
 * Input: every backend checks its arguments with core's shared parsers (`parse-store-input.ts`,
 * `encodeMessageBatch`), so a bad call fails the same way everywhere, with `MemValidationError`
 * naming the path and nothing written. What passes is stored exactly. The limits
 * (`store-limits.ts`):
 * - identifiers are well-formed Unicode (no lone UTF-16 surrogate): session ids (1-512 code
 *   units, no control characters), message and summary ids (1-256), idempotency keys (1-512);
 *   backends may index them as UTF-8, where a lone surrogate would become U+FFFD and collide;
 * - objects and arrays nest at most `MAX_JSON_DEPTH` (64) levels inside a message;
 * - a message's `tokenCount` is an integer in 0..`MAX_MESSAGE_TOKENS` (100,000,000), so
 *   session totals stay safe integers;
 * - `content` is a string or content parts, never `null`.
 */
export const STORE_SPECIFICATION_VERSION = 'mem.store.v3';

/**
 * What a store declares about itself. Descriptive: core behaves the same with any of them (it
 * checks `specificationVersion` and the methods); they tell users and tests what to expect, and
 * the conformance suite runs the TTL and multi-process tests by them.
 */
export interface StoreCapabilities {
  /** Sessions expire `ttlMs` after their last write when the store was built with a TTL. */
  readonly ttl: boolean;
  /** Several OS processes may use the same backing data at once, safely. */
  readonly multiProcess: boolean;
  /** Data survives the process (a file, a server). */
  readonly durable: boolean;
}

/** A message as stored: the message plus its position in the session. */
export type StoredMessage = Message & { seq: number; tokenCount: number };

/** Links a summary to the originals it replaced. */
export interface SummaryRecord {
  /** Id of the summary message (a `system` message with `metadata.kind === 'summary'`). */
  id: string;
  /** Ids of the messages this summary replaced, oldest first (earlier summaries included). */
  originalMessageIds: string[];
  /** Sequence range replaced, inclusive. */
  fromSeq: number;
  throughSeq: number;
  /** Tokens of the replaced messages and of the summary. */
  originalTokenCount: number;
  tokenCount: number;
  /** originalTokenCount / tokenCount, e.g. 3.5 for 3.5x compression. */
  compressionRatio: number;
  /** createdAt of the oldest and newest replaced message (ms since epoch). */
  timeRange: { start: number; end: number };
  createdAt: number;
  /** Id of the summary this one folded in, if any (summaries of summaries). */
  previousSummaryId?: string;
}

export interface SessionInfo {
  id: string;
  version: number;
  epoch: number;
  /** Seq of the newest message ever appended (0 for an empty session). */
  lastSeq: number;
  /** Number of active messages. */
  messageCount: number;
  /** Sum of the active messages' token counts. */
  tokenCount: number;
  createdAt: number;
  updatedAt: number;
  /** The user the session belongs to (v3); absent for a session without one. */
  userId?: string;
}

export interface AppendOptions {
  /**
   * Makes the append idempotent: a retry with the same key returns the first result and adds
   * nothing. Stores remember at least the last 1,024 keys of each session. 1 to 512 UTF-16 code
   * units of well-formed Unicode.
   */
  idempotencyKey: string;
  /**
   * The user the session belongs to (v3), checked with `assertValidUserId`. The first append
   * that names a user binds the session to it (a new session, or one stored without a user),
   * atomically with the append. An append naming another user than the bound one is refused
   * with `MemValidationError` (field `userId`) and writes nothing, duplicate key or not. An
   * append without `userId` to a bound session is allowed and leaves the binding alone.
   */
  userId?: string;
}

export interface AppendResult {
  version: number;
  epoch: number;
  /** Seq given to the first appended message. */
  firstSeq: number;
  lastSeq: number;
  /** True when this key had been applied before and nothing was written now. */
  duplicate: boolean;
}

export interface ReadOptions {
  /** Only messages with `seq > afterSeq`. */
  afterSeq?: number;
  /** Only messages with `seq < beforeSeq`. */
  beforeSeq?: number;
  /** At most this many messages; with `from: 'end'` the newest ones. */
  limit?: number;
  /** Which end `limit` counts from. Results are always oldest first. Default `'start'`. */
  from?: 'start' | 'end';
}

export interface ReadResult {
  version: number;
  epoch: number;
  messages: StoredMessage[];
}

export interface CompactInput {
  /** The epoch the compaction was planned at. */
  expectedEpoch: number;
  /** Replace every active message with `seq <= throughSeq`, except the `keepSeqs`. */
  throughSeq: number;
  /**
   * Pinned messages inside the range that stay active, in place (e.g. the agent's system
   * prompt): they are neither summarized nor archived. `throughSeq` itself cannot be pinned.
   */
  keepSeqs?: number[];
  /** The summary message (role `system`, `metadata.kind: 'summary'`), token count included. */
  summary: Message & { tokenCount: number };
  record: SummaryRecord;
}

export interface CompactResult {
  version: number;
  epoch: number;
  /** Seq given to the summary: `throughSeq`, so it sorts before every remaining message. */
  summarySeq: number;
}

export interface EraseInput {
  expectedEpoch: number;
  /** Erase every active message with `seq <= throughSeq`, for good, except the `keepSeqs`. */
  throughSeq: number;
  /** Pinned messages inside the range that stay active (see CompactInput.keepSeqs). */
  keepSeqs?: number[];
}

export interface EraseResult {
  version: number;
  epoch: number;
  erasedCount: number;
}

export interface ReplaceInput {
  /** Write only if the session is at this version (omit to replace unconditionally). */
  expectedVersion?: number;
  messages: Array<Message & { tokenCount: number }>;
}

export interface FlushInput {
  /** The epoch the caller read the conversation at: the flush commits only at this epoch. */
  expectedEpoch: number;
}

export interface FlushResult {
  version: number;
  epoch: number;
  /** Archived originals dropped (folded summaries included). */
  droppedMessages: number;
  /** Summary records dropped. 0 with `droppedMessages` 0: nothing changed, counters as they were. */
  droppedSummaries: number;
}

export interface ListOptions {
  cursor?: string;
  limit?: number;
  /** Only sessions bound to this user (v3). A cursor is valid only with the same filter. */
  userId?: string;
}

export interface ListResult {
  sessionIds: string[];
  /** Pass back to get the next page; absent on the last page. */
  cursor?: string;
}

/** Everything a session holds, for backup and migration between stores. */
export interface SessionSnapshot {
  format: 'mem.session.v1';
  sessionId: string;
  info: SessionInfo;
  messages: StoredMessage[];
  archived: StoredMessage[];
  summaries: SummaryRecord[];
  /**
   * Applied idempotency keys with the result each one first returned, newest last, so a retry
   * after an import still adds nothing and still returns its first result.
   */
  idempotencyKeys: IdempotencyRecord[];
}

/** An applied idempotency key and the result its append first returned. */
export interface IdempotencyRecord {
  key: string;
  version: number;
  epoch: number;
  firstSeq: number;
  lastSeq: number;
}

/**
 * What `pop` returns: the counters after the call and the message it removed. `message` is null
 * when nothing was removed (an unknown, cleared or empty session, or one whose newest active
 * message is a summary); then nothing changed and the counters are the current ones.
 */
export interface PopResult {
  version: number;
  epoch: number;
  message: StoredMessage | null;
}

/**
 * The Store contract, version 1 (`mem.store.v1`): version 2 without `flush`. Core no longer
 * accepts it; kept so a backend author can see what changed.
 *
 * A namespaced view of a backend. Session ids are validated with `assertValidSessionId`; they
 * never become SQL text or a key pattern.
 */
export interface StoreV1 {
  readonly specificationVersion: 'mem.store.v1';
  readonly capabilities: StoreCapabilities;
  /** The tenant this store is bound to. */
  readonly namespace: string;

  /**
   * Appends counted messages atomically, in order. Message ids are unique within a session:
   * an id already present (active or archived) is rejected with `MemValidationError`.
   */
  append(
    sessionId: string,
    messages: Array<Message & { tokenCount: number }>,
    options: AppendOptions,
  ): Promise<AppendResult>;
  read(sessionId: string, options?: ReadOptions): Promise<ReadResult>;
  /** Null when the session does not exist (or has expired). */
  info(sessionId: string): Promise<SessionInfo | null>;
  compact(sessionId: string, input: CompactInput): Promise<CompactResult>;
  erase(sessionId: string, input: EraseInput): Promise<EraseResult>;
  replace(sessionId: string, input: ReplaceInput): Promise<AppendResult>;
  /**
   * Removes the newest active message for good and returns it, atomically: whatever appends run
   * at the same time, exactly the message that is newest when the pop runs goes, and nothing
   * else. On a removal `version` and `epoch` grow by one, the message's tokens leave the session
   * total and its id becomes free (like `erase`); `lastSeq` stays, so seqs are never reused, and
   * the idempotency key of the append that added it stays applied (a retry of that append is
   * still a duplicate and adds nothing). A summary is never popped (its archived originals and
   * record would go with it): when the newest active message is a summary, or the session is
   * empty or unknown, nothing changes and `message` is null. Pinned system prompts are not
   * special: they are popped only when they are the newest message, which after a compaction
   * they no longer are (they sit before the summary).
   */
  pop(sessionId: string): Promise<PopResult>;
  /** Removes the session and everything linked to it. Returns false if it did not exist. */
  clear(sessionId: string): Promise<boolean>;
  summaries(sessionId: string): Promise<SummaryRecord[]>;
  /** Originals replaced by a summary, oldest first. */
  archived(sessionId: string, summaryId: string): Promise<StoredMessage[]>;
  list(options?: ListOptions): Promise<ListResult>;
  export(sessionId: string): Promise<SessionSnapshot | null>;
  /** Writes a snapshot as a session, replacing whatever had that id. */
  import(snapshot: SessionSnapshot): Promise<void>;
  close(): Promise<void>;
}

/** The Store contract, version 2 (`mem.store.v2`): version 1 and `flush`. */
export interface StoreV2 extends Omit<StoreV1, 'specificationVersion'> {
  readonly specificationVersion: typeof STORE_SPECIFICATION_VERSION;
  /**
   * Makes the stored session exactly its active messages (summary messages included), for good
   * and atomically, if the session is still at `expectedEpoch` (else `MemStoreConflictError`):
   * every archived original and every summary record goes, and the ids of the dropped originals
   * become free. Active messages, their seqs, `lastSeq`, the token total and the idempotency
   * keys stay as they are, so appends racing a flush are never touched (they only add active
   * messages, and leave the epoch alone). When something was dropped, `version` and `epoch`
   * grow by one (a compaction planned before it must re-plan: the summary it folds in has no
   * record any more); when there was nothing to drop (an unknown, cleared or never-compacted
   * session) nothing changes and the result holds the current counters. Used by the engine's
   * `persistence_strategy: "FLUSH"` after each inference.
   */
  flush(sessionId: string, input: FlushInput): Promise<FlushResult>;
}

/** Longest accepted text of one user fact, in UTF-16 code units. */
export const MAX_USER_FACT_LENGTH = 2000;
/** Most facts one user's document holds. */
export const MAX_USER_FACTS = 500;

/**
 * One durable fact about a user ("Lives in Lisbon", "Prefers answers in German"). Facts are
 * short sentences about the person, kept across sessions and shown in every session's prompt.
 */
export interface UserFact {
  /** Unique within the user's facts: 1-256 code units, well-formed. */
  id: string;
  /** The fact, one sentence: 1 to `MAX_USER_FACT_LENGTH` code units, well-formed, not blank. */
  text: string;
  /**
   * What the fact is about, as a short key (`name`, `location`, `employer`, `preference:coffee`):
   * a newer fact about the same thing supersedes the older one. Optional; 1-128 code units.
   */
  about?: string;
  /** The session the fact was learnt in (absent when set through the API). */
  sessionId?: string;
  /** The messages it was learnt from, oldest first (empty when set through the API). */
  sourceMessageIds: string[];
  /** When the fact was first learnt and last changed, ms since the epoch. */
  createdAt: number;
  updatedAt: number;
}

/** A user's facts as stored, with the version a write must name to replace them. */
export interface UserFacts {
  userId: string;
  /**
   * 0 when the user never had facts (or after `forgetUser`); grows by one on every write. After a
   * write of an empty list, `facts` is empty and the version stays at the written one, so a
   * writer that read before still conflicts.
   */
  version: number;
  /** Oldest first by `createdAt`, as written. */
  facts: UserFact[];
}

export interface WriteUserFactsInput {
  /** The version read (0: none stored yet). A stale version is a `MemStoreConflictError`. */
  expectedVersion: number;
  /** The whole new document: at most `MAX_USER_FACTS` facts, ids unique. */
  facts: UserFact[];
}

export interface WriteUserFactsResult {
  version: number;
}

/** What `forgetUser` removed. Counts are of this call: a second call returns zeros. */
export interface ForgetUserResult {
  /** Sessions removed, with everything linked to them (archive, summaries, idempotency keys). */
  sessions: number;
  /** Messages removed with them, active and archived. */
  messages: number;
  /** Facts removed. */
  facts: number;
}

/**
 * The Store contract, version 3 (`mem.store.v3`): version 2 and users.
 *
 * A session may belong to one user (`AppendOptions.userId`): the binding is stored with the
 * session, survives export/import (`SessionInfo.userId`), and goes with it on `clear`. `replace`,
 * `compact`, `erase`, `pop` and `flush` keep it.
 */
export interface StoreV3 extends Omit<StoreV2, 'specificationVersion'> {
  readonly specificationVersion: typeof STORE_SPECIFICATION_VERSION;
  /** The user's facts; `{ version: 0, facts: [] }` when none are stored. */
  userFacts(userId: string): Promise<UserFacts>;
  /**
   * Replaces the user's facts if they are still at `expectedVersion` (compare-and-swap), else
   * `MemStoreConflictError` (with `userId` set): two writers that read the same version cannot
   * both win, so a writer re-reads and re-applies its change. An empty `facts` list removes the
   * facts but keeps the version (a tombstone), so a writer that read before must re-read;
   * `forgetUser` removes the tombstone too (the version reads 0 again).
   */
  writeUserFacts(userId: string, input: WriteUserFactsInput): Promise<WriteUserFactsResult>;
  /**
   * Erases everything of the user: every session bound to it (with its messages, archive,
   * summaries and idempotency keys) and its facts. Each session goes atomically and only if it
   * is still bound to this user; a run that is killed half-way leaves every remaining session
   * whole, and running it again finishes the job. Idempotent; other users' data is never
   * touched. Sessions appended to while it runs may survive it: stop using the user's sessions
   * first.
   */
  forgetUser(userId: string): Promise<ForgetUserResult>;
}

/** The Store of the version this core speaks. */
export type Store = StoreV3;
