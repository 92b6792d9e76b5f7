/**
 * The playground's HTTP API as types: the body of every request and every answer of the JSON
 * routes. main.ts routes them, playground-api.ts answers them, and the page (web/api.js) imports
 * these through JSDoc, so `tsc -p web` checks what the page sends and reads. Types only, and the
 * only import is replay-views.ts (import-free too): the page's type check never reaches core or
 * Node.
 *
 *   GET  /api/config     → ConfigResponse
 *   POST /api/validate   ValidateRequest → ValidateResponse
 *   POST /api/replay     ReplayRequest → ReplayResponse
 *   GET  /api/turn/:i    ?TurnQuery → TurnResponse (TurnPageResponse with `historyLimit`)
 *   POST /api/ask        AskRequest → AskResponse
 *   POST /api/chat       ChatRequest → ChatResponse
 *   GET  /api/user/facts → UserFactsResponse (after a replay with a user)
 *   POST /api/user/forget ForgetUserRequest → ForgetUserResponse
 *   any error            → ErrorResponse, with its HTTP status
 *
 * A request type says what the page sends; the server reads each field as `Unchecked` and checks
 * it itself (bad ones answer 400 naming the field).
 */
import type {
  AskAnswer,
  HistoryItem,
  ReplayStats,
  StoreKind,
  SummaryView,
  TurnDetail,
  TurnSnapshot,
  UserFactView,
  UserReplayView,
} from '../replay/replay-views.ts';

/** A request body as the server receives it: the fields it knows, each not yet checked. */
export type Unchecked<T> = { [K in keyof T]?: unknown };

/** One bad path of a profile (core's `ConfigIssue`). */
export interface Issue {
  path: string;
  message: string;
}

/** The body of every error answer: `error` says what to do; the rest names what went wrong. */
export interface ErrorResponse extends ErrorDetails {
  error: string;
}

/** What an error names besides its message (`HttpError.extra`). */
export interface ErrorDetails {
  /** The profile's bad paths (400 from /api/replay). */
  issues?: Issue[];
  /** The request field that was refused. */
  field?: 'question' | 'user';
  /** What is running, when a question is refused with 409. */
  busy?: 'replay' | 'chat';
  /** The playground limit a request went past, with its value below. */
  limit?: 'turns' | 'time' | 'memory' | 'question';
  maxTurns?: number;
  timeLimitMs?: number;
  memoryLimitMb?: number;
  maxChars?: number;
  /** How to turn the chat on (409 from /api/chat without a model). */
  help?: string;
  /** The memory the request needs is gone (its user was forgotten, 409): replay first. */
  replayNeeded?: boolean;
}

/** A session of the bundled conversation and the turns (0-based, one per user message) it spans. */
export interface SessionRange {
  id: string;
  title: string;
  firstTurn: number;
  lastTurn: number;
}

/** Which model the chat talks to (never the key), or how to configure one. */
export type PublicChatConfig =
  | { enabled: false; help: string }
  | { enabled: true; provider: 'openai' | 'anthropic'; model: string; help: string };

/** GET /api/config */
export interface ConfigResponse {
  conversation: { title: string; sessions: SessionRange[] };
  /** Seed profiles as parsed JSON (snake_case; one may be wrapped in `{ "profile": ... }`). */
  presets: { name: string; profile: unknown }[];
  /** The stores a replay may use, the default first. */
  stores: StoreKind[];
  /** What a replay without `store` uses: `sqlite`. */
  defaultStore: StoreKind;
  chat: PublicChatConfig;
}

/** POST /api/validate */
export interface ValidateRequest {
  /** The profile as JSON, or the editor's text (then JSON syntax errors are issues too). */
  profile: unknown;
}

export type ValidateResponse = { ok: true } | { ok: false; issues: Issue[] };

/** POST /api/replay */
export interface ReplayRequest {
  /** As in ValidateRequest. */
  profile: unknown;
  /** Default `sqlite` (a fresh file per replay); `redis` only when the server has a Redis URL. */
  store?: StoreKind;
  /** Default `bundled`. */
  conversation?: 'bundled' | 'generated';
  /** Interactions of the generated conversation (default 10,000, at most the server's limit). */
  turns?: number;
  /**
   * A user id (1-64 letters, digits, `_` or `-`): each session of the conversation is replayed
   * as its own mem session of this user, and questions and the chat then run in a new session
   * of the user, so what they get comes from the user's memory (facts and other sessions).
   * Absent: ONE thread, no user.
   */
  user?: string;
}

export interface ReplayResponse {
  conversationTitle: string;
  store: StoreKind;
  turns: TurnSnapshot[];
  /** Aggregated on the server, for the whole thread; the page shows these numbers as they are. */
  stats: ReplayStats;
  /** The summaries that exist after the last turn. */
  summaries: SummaryView[];
  /** A replay with a user: the user's sessions, and the session questions and the chat use. */
  user?: UserReplayView;
}

/** GET /api/turn/:i query: with `historyLimit`, one page of the history (default: the latest). */
export interface TurnQuery {
  historyLimit?: number;
  historyOffset?: number;
  /** A message id: the page around it. */
  historyAround?: string;
}

/** Where a page of the history sits, and how many messages are in each state. */
export interface HistoryPage {
  offset: number;
  total: number;
  counts: Record<HistoryItem['state'], number>;
}

export type TurnResponse = TurnDetail & { historyPage?: HistoryPage };

/** The answer to GET /api/turn/:i?historyLimit=N: `history` is one page. */
export type TurnPageResponse = TurnDetail & { historyPage: HistoryPage };

/** POST /api/ask */
export interface AskRequest {
  question: string;
}

export type AskResponse = AskAnswer;

/** POST /api/chat */
export interface ChatRequest {
  message: string;
}

export interface ChatResponse {
  reply: string;
  /** The new turn, and its detail. */
  turn: TurnSnapshot;
  detail: TurnDetail;
  /** The thread's stats with this turn, aggregated on the server like ReplayResponse's. */
  stats: ReplayStats;
}

/** GET /api/user/facts: the user of the last replay, read from the store now. */
export interface UserFactsResponse {
  user: string;
  /** Oldest first. */
  facts: UserFactView[];
  /** The user's stored sessions (`engine.user(id).sessions()`). */
  sessions: string[];
  /** True after "forget this user": replay to build the memory again. */
  forgotten: boolean;
}

/** POST /api/user/forget: the user of the last replay, named again so nobody forgets by accident. */
export interface ForgetUserRequest {
  user: string;
}

export interface ForgetUserResponse {
  user: string;
  /** What `engine.forgetUser(user)` removed from the store and the knowledge base. */
  removed: { sessions: number; messages: number; facts: number; chunks: number };
  /** Always true: questions and the chat need a replay to have a memory again. */
  replayNeeded: true;
  /** Says the above for a person. */
  message: string;
}
