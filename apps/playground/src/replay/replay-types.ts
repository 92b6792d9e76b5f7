/**
 * What the replay (src/replay) takes and returns; the CLI (src/cli) and the server (src/server)
 * call it. The JSON shapes it produces live in replay-views.ts (re-exported here), which the
 * server's HTTP contract (src/server/contract.ts) and the page (web/) share.
 */
import type { Message } from '@mem/core';
import type {
  ReplayStats,
  StoreKind,
  TurnDetail,
  TurnSnapshot,
  UserReplayView,
} from './replay-views.ts';

export type {
  AskAnswer,
  AskContextItem,
  AskHitView,
  ContextItem,
  HistoryItem,
  KnowledgeHitView,
  MessageRole,
  PresentMessage,
  ReplayStats,
  StoreKind,
  SummaryView,
  TurnDetail,
  TurnSnapshot,
  UserFactView,
  UserReplayView,
} from './replay-views.ts';

/** A conversation in the project's own format (`mem.conversation.v1`), normalized. */
export interface Conversation {
  title: string;
  /**
   * In order; the playground replays them as consecutive days of ONE memory thread, or with a
   * user, each as its own mem session of that user.
   */
  sessions: { id: string; title: string; messages: Message[] }[];
}

export interface ReplayOptions {
  conversation: Conversation;
  /** A profile as JSON (snake_case, optionally wrapped in `{ "profile": ... }`). */
  profile: unknown;
  store: StoreKind;
  /** SQLite file (default: a fresh file in a temporary directory). */
  sqlitePath?: string;
  /** Where that temporary directory is made (default: the OS's). */
  tempRoot?: string;
  /** Required for `store: 'redis'`. */
  redisUrl?: string;
  /**
   * Replays each session of the conversation as its own mem session of this user (ids
   * `<user>:<session id>`), then moves to a new session of the user (`<user>:playground-chat`)
   * for questions and the chat. Default: ONE thread, no user.
   */
  userId?: string;
  /** Called after each turn. */
  onProgress?: (done: number, total: number) => void;
  /** Checked before each turn: once aborted, the replay closes its store and rejects. */
  signal?: AbortSignal;
}

export interface ReplayResult {
  conversationTitle: string;
  store: StoreKind;
  turns: TurnSnapshot[];
  stats: ReplayStats;
  /** With `userId`: the user's sessions. */
  user?: UserReplayView;
  /** Detail of one turn (0-based), computed from what the replay recorded. */
  detail(turn: number): TurnDetail;
}
