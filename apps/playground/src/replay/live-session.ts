/**
 * A memory thread the playground drives turn by turn: the replay uses it for every turn of a
 * conversation, and the server uses it to chat live. One turn is two calls:
 *
 *   const live = await openLiveSession({ profile, store: 'sqlite', sessionId: 'chat' });
 *   const context = await live.beginTurn({ role: 'user', content: 'Hi' }); // send context.messages
 *   const { snapshot, detail } = await live.endTurn([{ role: 'assistant', content: reply }]);
 *   ...
 *   await live.close();
 *
 * `beginTurn` appends the user message, lets due long-term strategies (summarize, erase) finish,
 * then returns what the LLM gets; `endTurn` appends the replies (assistant and tool messages),
 * waits for compactions again, and records the turn. `turn(user, replies)` does both. Messages
 * without `id` / `createdAt` get fresh ones. The thread is cleared when opened. Between turns,
 * `ask(question)` shows the context the next call would get for a question, storing nothing.
 *
 * With `userId`, every session belongs to that user (`engine.session(id, { userId })`), and
 * `switchSession(id)` moves the next turns to another session of the user: its knowledge, facts
 * and the user's other sessions then make its context. The turns of all sessions are recorded
 * in one timeline (history, summaries and erasures over every session driven).
 */
import { randomUUID } from 'node:crypto';
import {
  type CountedMessage,
  createMemoryEngine,
  type MemoryContext,
  type MemoryEngine,
  type MessageInput,
  type SummaryRecord,
} from '@mem/core';
import { askAnswer } from './ask-answer.ts';
import { type BackendOptions, openBackend } from './open-backend.ts';
import type { AskAnswer, ReplayStats, TurnDetail, TurnSnapshot } from './replay-types.ts';
import { TurnRecorder } from './turn-recorder.ts';

export interface LiveSessionOptions extends BackendOptions {
  /** A profile as JSON (or parsed by core's `parseProfile`). */
  profile: unknown;
  /** The memory thread's id. Default `'playground'`. */
  sessionId?: string;
  /**
   * The user the sessions belong to. Everything the store holds of the user is forgotten when
   * opened (`engine.forgetUser`), as the thread is cleared: each replay starts from nothing.
   */
  userId?: string;
}

export interface TurnOptions {
  /** Messages appended just before the user message, e.g. a new day's system prompt. */
  before?: MessageInput[];
  /** The conversation session (day) the turn belongs to. Default `'live'`. */
  day?: string;
}

export interface LiveSession {
  /** The session the next turn (and `ask`) goes to. */
  readonly sessionId: string;
  readonly userId: string | undefined;
  /** Every session driven so far, in order (the current one last). */
  readonly sessionIds: readonly string[];
  readonly engine: MemoryEngine;
  /** Where the data lives: a SQLite file, a Redis URL, or `in memory`. */
  readonly location: string;
  readonly turns: readonly TurnSnapshot[];
  beginTurn(user: MessageInput, options?: TurnOptions): Promise<MemoryContext>;
  /** `detail` is computed when read. */
  endTurn(replies: MessageInput[]): Promise<{ snapshot: TurnSnapshot; detail: TurnDetail }>;
  turn(
    user: MessageInput,
    replies: MessageInput[],
    options?: TurnOptions,
  ): Promise<{ snapshot: TurnSnapshot; detail: TurnDetail }>;
  detail(turn: number): TurnDetail;
  /**
   * The context the next LLM call would get if `question` were the next user message, with the
   * history messages it brings back. Nothing is stored or recorded; only between turns.
   */
  ask(question: string): Promise<AskAnswer>;
  /**
   * Moves the next turns and questions to the session `sessionId` (of the same user), cleared
   * first unless it was driven before. Only between turns; waits for the current session's work.
   */
  switchSession(sessionId: string): Promise<void>;
  stats(): ReplayStats;
  /** Waits for work in flight and closes the store and knowledge base; `detail` still works. */
  close(): Promise<void>;
}

type Pending =
  | { kind: 'compaction'; record: SummaryRecord; source: 'summarizer' | 'fallback' }
  | { kind: 'erasure'; count: number };

export async function openLiveSession(options: LiveSessionOptions): Promise<LiveSession> {
  const backend = await openBackend(options);
  const { userId } = options;
  const owner = userId === undefined ? undefined : { userId };
  let sessionId = options.sessionId ?? 'playground';
  let clock = 0;
  let engine: MemoryEngine;
  try {
    engine = createMemoryEngine({
      profile: options.profile,
      store: backend.store,
      knowledgeBase: backend.knowledgeBase,
      // Summaries are dated on the conversation's clock, so replays are reproducible.
      now: () => (clock > 0 ? clock : Date.now()),
    });
    if (userId !== undefined) await engine.forgetUser(userId);
    await engine.session(sessionId, owner).clear();
  } catch (error) {
    await backend.close().catch(() => undefined);
    throw error;
  }
  let session = engine.session(sessionId, owner);
  const driven = new Map([[sessionId, session]]);
  const recorder = new TurnRecorder();
  const pending: Pending[] = [];
  const failures: unknown[] = [];
  engine.on('compacted', (e) => {
    if (driven.has(e.sessionId)) pending.push({ kind: 'compaction', ...e });
  });
  engine.on('erased', (e) => {
    if (driven.has(e.sessionId)) pending.push({ kind: 'erasure', count: e.erasedCount });
  });
  engine.on('compaction:error', (e) => failures.push(e.error));

  let open: { context: MemoryContext; user: CountedMessage; day: string } | undefined;
  let events: TurnSnapshot['events'] = [];
  let busyMs = 0;
  let closed: Promise<void> | undefined;

  const stampAndAppend = async (messages: MessageInput[]) => {
    if (messages.length === 0) return [];
    const stamped = messages.map((m) => {
      const createdAt = m.createdAt ?? Math.max(Date.now(), clock);
      clock = Math.max(clock, createdAt);
      return { ...m, createdAt };
    });
    const stored = await session.append(stamped);
    recorder.appended(stored, recorder.turns.length);
    return stored;
  };

  /** Lets long-term runs finish and records what they did in the current turn. */
  const settle = async () => {
    await session.idle();
    if (failures.length > 0) throw failures.shift();
    const done = pending.splice(0);
    if (done.length === 0) return;
    const turn = recorder.turns.length;
    const active = done.some((p) => p.kind === 'compaction') ? await session.messages() : [];
    for (const p of done) {
      if (p.kind === 'erasure') {
        events.push({ kind: 'erasure', count: p.count });
        continue;
      }
      events.push({
        kind: 'compaction',
        summaryId: p.record.id,
        count: p.record.originalMessageIds.length,
      });
      recorder.compacted(
        p.record,
        p.source,
        turn,
        active.find((m) => m.id === p.record.id),
      );
    }
    if (done.some((p) => p.kind === 'erasure')) {
      const history = new Set<string>();
      const summaries = new Set<string>();
      for (const s of driven.values()) {
        for (const m of await s.history()) history.add(m.id);
        for (const r of await s.summaries()) summaries.add(r.id);
      }
      recorder.erased(history, summaries, turn);
    }
  };

  const live: LiveSession = {
    get sessionId() {
      return sessionId;
    },
    userId,
    get sessionIds() {
      return [...driven.keys()];
    },
    engine,
    location: backend.location,
    turns: recorder.turns,
    async beginTurn(user, turnOptions = {}) {
      if (open !== undefined)
        throw new Error(
          '[mem/playground] beginTurn: the previous turn was not ended; call endTurn first.',
        );
      if (closed !== undefined) throw new Error('[mem/playground] this live session is closed.');
      const started = performance.now();
      events = [];
      await stampAndAppend(turnOptions.before ?? []);
      const [stored] = await stampAndAppend([user]);
      await settle();
      const context = await session.context();
      recorder.context(context, sessionId);
      open = { context, user: stored!, day: turnOptions.day ?? 'live' };
      busyMs += performance.now() - started;
      return context;
    },
    async endTurn(replies) {
      if (open === undefined)
        throw new Error('[mem/playground] endTurn: no turn was begun; call beginTurn first.');
      const started = performance.now();
      await stampAndAppend(replies);
      await settle();
      const snapshot: TurnSnapshot = {
        index: recorder.turns.length,
        sessionId: open.day,
        userMessageId: open.user.id,
        at: open.user.createdAt,
        historyTokens: recorder.historyTokens,
        promptTokens: open.context.tokenCount,
        events,
      };
      recorder.turns.push(snapshot);
      open = undefined;
      busyMs += performance.now() - started;
      // The detail is built on first read only: a replay never reads it, and building it costs
      // O(history), which over every turn of a long replay would be quadratic.
      return {
        snapshot,
        get detail() {
          return recorder.detail(snapshot.index);
        },
      };
    },
    async turn(user, replies, turnOptions) {
      await live.beginTurn(user, turnOptions);
      return live.endTurn(replies);
    },
    detail: (turn) => recorder.detail(turn),
    async ask(question) {
      if (open !== undefined)
        throw new Error('[mem/playground] ask: a turn is in progress; ask after endTurn.');
      if (closed !== undefined) throw new Error('[mem/playground] this live session is closed.');
      await session.idle();
      const id = `question-${randomUUID()}`;
      const context = await session.context({ next: { id, role: 'user', content: question } });
      return askAnswer({ id, text: question }, context, recorder, sessionId);
    },
    async switchSession(next) {
      if (open !== undefined)
        throw new Error(
          '[mem/playground] switchSession: a turn is in progress; switch after endTurn.',
        );
      if (closed !== undefined) throw new Error('[mem/playground] this live session is closed.');
      await settle();
      const known = driven.get(next);
      if (known === undefined) {
        const handle = engine.session(next, owner);
        await handle.clear();
        driven.set(next, handle);
      }
      sessionId = next;
      session = driven.get(next)!;
    },
    stats: () => recorder.stats(busyMs),
    close() {
      closed ??= engine.idle().finally(() => backend.close());
      return closed;
    },
  };
  return live;
}
