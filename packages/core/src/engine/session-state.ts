import { MemValidationError } from '../errors/errors.ts';
import type { KnowledgeHit } from '../knowledge/knowledge-base-spec.ts';
import { InteractionLog } from '../model/interaction-log.ts';
import type { Store, StoredMessage } from '../store/store-spec.ts';
import type { Counting } from './counting.ts';
import { readTail } from './read-tail.ts';

/** The prompt of a session's last `context()`, kept to compare with the provider's usage. */
export interface CountedPrompt {
  readonly model: string | undefined;
  readonly encoding: string;
  readonly tokens: number;
}

/**
 * The engine's cached view of one session: the active messages grouped by interaction, and the
 * counters they were read at. It follows the store incrementally (`read` after the last seq);
 * a changed epoch (another writer compacted or erased) reloads it whole.
 */
export class SessionState {
  log = new InteractionLog<StoredMessage>();
  lastSeq = 0;
  version = 0;
  epoch = 0;
  loaded = false;
  /**
   * Seq of the newest message whose interaction is in the knowledge base (continuous indexing).
   * A first load assumes every finished interaction was indexed by the engine that appended the
   * next user message; a compaction re-indexes what it archives, so a gap (a crash between the
   * two writes) closes there.
   */
  indexedSeq: number | undefined;
  /** Indexing of finished interactions queued or in flight (one at a time, in order). */
  indexing: Promise<void> | undefined;
  /**
   * The user the session belongs to: named by a handle (`engine.session(id, { userId })`) or
   * read from the store's binding. Undefined for a session without a user.
   */
  userId: string | undefined;
  /** True once the store's binding has been read and agrees with `userId` (see `checkUser`). */
  userChecked = false;
  /**
   * Seq of the first message of the newest interaction whose facts were extracted (or that a
   * first load found complete: another engine's, or before this one's time).
   */
  factsSeq: number | undefined;
  /** Fact extraction queued or in flight (one at a time, in order). */
  extracting: Promise<void> | undefined;
  /** `inputTokens` of the caller's last reported LLM call. */
  lastInputTokens: number | undefined;
  /**
   * How the cached messages are counted: the engine's default counting (the counts the store
   * holds) until a call names a model counted otherwise; then they are recounted once
   * (`useCounting`), and so is whatever is read from the store after.
   */
  counting: Counting;
  /** The model the session's prompts are for: the last one a call named, else the engine's. */
  model: string | undefined;
  /** The last context's prompt, until an append reports the provider's usage for it. */
  lastPrompt: CountedPrompt | undefined;
  /**
   * FLUSH persistence: the epoch of the session's last flush by this engine (the stored session
   * was exactly its conversation then); undefined before the first.
   */
  flushedEpoch: number | undefined;
  /** Long-term runs in flight or queued for this session. */
  running: Promise<void> | undefined;
  rerun = false;
  /**
   * Knowledge-base hits for the newest user message, reused while it stays the newest (an
   * agent calls the LLM several times per turn, around tool calls). Dropped on every
   * compaction, erasure or clear made here.
   */
  knowledge:
    | { key: string; found: Array<{ collectionId: string; hits: KnowledgeHit[]; more: boolean }> }
    | undefined;

  /**
   * @param tailTokens when set, a load reads only the tail a window of that many tokens can use
   *   (plus the leading system messages) instead of the whole session: for profiles with a
   *   token window and no long-term strategy, whose sessions grow without bound.
   */
  constructor(
    readonly id: string,
    private readonly tailTokens: number | undefined,
    private readonly stored: Counting,
    model: string | undefined,
  ) {
    this.counting = stored;
    this.model = model;
  }

  /** Counts the cached messages with `counting` from now on, recounting them once if it changed. */
  useCounting(counting: Counting): void {
    if (counting === this.counting) return;
    this.counting = counting;
    if (!this.loaded) return;
    const messages = [...this.log.system];
    for (const interaction of this.log.interactions) messages.push(...interaction.messages);
    messages.sort((a, b) => a.seq - b.seq);
    this.log = new InteractionLog<StoredMessage>(this.fromStore(messages, true));
    this.knowledge = undefined;
  }

  /** Messages as read from the store, recounted when this session counts otherwise. */
  private fromStore(messages: StoredMessage[], always = false): StoredMessage[] {
    if (!always && this.counting === this.stored) return messages;
    const { counter } = this.counting;
    return messages.map((m) => ({ ...m, tokenCount: counter.countMessage(m) }));
  }

  /** Brings the cache up to date with the store. */
  async sync(store: Store): Promise<void> {
    if (!this.loaded) return this.load(store);
    const read = await store.read(this.id, { afterSeq: this.lastSeq });
    if (read.epoch !== this.epoch) return this.load(store);
    this.apply(this.fromStore(read.messages), read.version);
  }

  /**
   * Reads the store's binding of the session once: the store is the truth, so a stored user
   * replaces whatever a handle claimed (each handle then checks it is its own user, see
   * `forwarding`); without one, the claim stands and the next append binds it.
   */
  async checkUser(store: Store): Promise<void> {
    if (this.userChecked) return;
    const stored = (await store.info(this.id))?.userId;
    if (stored !== undefined) this.userId = stored;
    this.userChecked = true;
  }

  async load(store: Store): Promise<void> {
    this.knowledge = undefined;
    const [read] = await Promise.all([
      this.tailTokens === undefined
        ? store.read(this.id)
        : readTail(store, this.id, this.tailTokens),
      this.checkUser(store),
    ]);
    if (this.loaded && (read.epoch < this.epoch || read.version < this.version)) return;
    this.log = new InteractionLog<StoredMessage>(this.fromStore(read.messages));
    this.lastSeq = read.messages.at(-1)?.seq ?? 0;
    this.version = read.version;
    this.epoch = read.epoch;
    this.loaded = true;
    this.indexedSeq ??= indexedThroughSeq(this.log);
    this.factsSeq ??= completeSeq(this.log);
  }

  /** Adds messages read or written after the cached ones; anything already cached is skipped. */
  apply(messages: readonly StoredMessage[], version: number): void {
    for (const m of messages) {
      if (m.seq <= this.lastSeq) continue;
      this.log.append(m);
      this.lastSeq = m.seq;
    }
    if (version > this.version) this.version = version;
  }

  reset(): void {
    this.log = new InteractionLog<StoredMessage>();
    this.lastSeq = 0;
    this.version = 0;
    this.epoch = 0;
    this.loaded = false;
    this.lastInputTokens = undefined;
    this.lastPrompt = undefined;
    this.knowledge = undefined;
    this.indexedSeq = undefined;
    this.factsSeq = undefined;
    this.flushedEpoch = undefined;
    // The binding went with the cleared session; a handle's user binds it again on its next write.
    this.userChecked = false;
  }

  /** Waits until no indexing is queued or in flight. */
  async settleIndexing(): Promise<void> {
    while (this.indexing !== undefined) await this.indexing;
  }

  /** Background work in flight: long-term runs, indexing or fact extraction. */
  get busy(): Promise<void> | undefined {
    const work = [this.running, this.indexing, this.extracting].filter((p) => p !== undefined);
    if (work.length <= 1) return work[0];
    return Promise.allSettled(work).then(() => undefined);
  }

  /**
   * Complete interactions (a newer one has started, or the newest is answered: it ends with an
   * assistant message that calls no tool) not in the knowledge base yet, and the one before them
   * (its last message helps find the first of them). An answered interaction is indexed at once,
   * so a session's last turn is found from the user's other sessions; if it grows afterwards it
   * is indexed again (its chunks are replaced: their ids follow its first message).
   */
  unindexed(): { interactions: StoredInteraction[]; before: StoredInteraction | undefined } {
    const all = this.log.interactions;
    const complete = newestComplete(this.log);
    const done = complete === undefined ? [] : all.slice(0, all.indexOf(complete) + 1);
    const after = this.indexedSeq ?? 0;
    let i = done.length;
    while (i > 0 && (done[i - 1]!.messages.at(-1)?.seq ?? 0) > after) i--;
    return { interactions: done.slice(i), before: done[i - 1] };
  }
}

type StoredInteraction = InteractionLog<StoredMessage>['interactions'][number];

/** Another user than the session's: said without naming the user the session belongs to. */
export function otherUser(sessionId: string): MemValidationError {
  return new MemValidationError(
    'userId',
    `[mem/core] session ${JSON.stringify(sessionId)} belongs to another user: open it with that user's id, or use another session id for this user.`,
  );
}

/**
 * The newest complete interaction: the newest one when it is answered (see `isAnswered`), else
 * the one before it (finished: a newer one started). What indexing and fact extraction have
 * covered when a session is loaded.
 */
function newestComplete(log: InteractionLog<StoredMessage>): StoredInteraction | undefined {
  const newest = log.interactions.at(-1);
  return newest !== undefined && isAnswered(newest.messages) ? newest : log.interactions.at(-2);
}

/** Seq of the first message of the newest complete interaction (0 when there is none). */
export function completeSeq(log: InteractionLog<StoredMessage>): number {
  return newestComplete(log)?.messages[0]?.seq ?? 0;
}

/** True when the interaction ends with an assistant message that calls no tool. */
export function isAnswered(messages: readonly StoredMessage[]): boolean {
  const last = messages.at(-1);
  return (
    last?.role === 'assistant' && (last.toolCalls === undefined || last.toolCalls.length === 0)
  );
}

/** Seq of the last message of the newest complete interaction (0 when there is none). */
export function indexedThroughSeq(log: InteractionLog<StoredMessage>): number {
  return newestComplete(log)?.messages.at(-1)?.seq ?? 0;
}
