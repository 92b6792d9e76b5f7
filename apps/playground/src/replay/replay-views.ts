/**
 * What a replay produces, as plain JSON data: the turns, their detail, the answer to a question
 * and the stats. The CLI prints these, the server sends them (contract.ts) and the page (web/)
 * renders them. No imports, so the page's type check (`tsc -p web`) reads this file alone.
 */

/** A message's role, as core's `Role` spells it (spelled out here to keep the file import-free). */
export type MessageRole = 'system' | 'user' | 'assistant' | 'tool';

export type StoreKind = 'memory' | 'sqlite' | 'redis';

/** One user turn: the user message, then the LLM call's context, then the replies. */
export interface TurnSnapshot {
  /** 0-based over the whole replay. */
  index: number;
  /** The conversation session (day) the turn belongs to. */
  sessionId: string;
  userMessageId: string;
  /** createdAt of the user message (ms). */
  at: number;
  /** Tokens of everything said so far (active + archived; erased messages excluded). */
  historyTokens: number;
  /** Tokens the LLM would receive for this turn (`context().tokenCount`). */
  promptTokens: number;
  /** Compactions / erasures that completed during this turn. */
  events: { kind: 'compaction' | 'erasure'; summaryId?: string; count: number }[];
}

export interface ContextItem {
  /** `facts`: the user's facts block (a system message; sessions of a user only). */
  kind: 'system' | 'facts' | 'summary' | 'knowledge' | 'window';
  id: string;
  role: MessageRole;
  text: string;
  tokens: number;
}

export interface HistoryItem {
  id: string;
  role: MessageRole;
  text: string;
  tokens: number;
  /** At the selected turn: still in the active history, replaced by a summary, or erased. */
  state: 'active' | 'archived' | 'erased';
  /** The summary that replaced it (state `archived`). */
  summaryId?: string;
  toolName?: string;
  isError?: boolean;
}

export interface SummaryView {
  id: string;
  text: string;
  /** The turn during which it was created. */
  turn: number;
  originalMessageIds: string[];
  originalTokens: number;
  summaryTokens: number;
  /** summaryTokens / originalTokens. */
  ratio: number;
  /** createdAt range of the originals (ms). */
  start: number;
  end: number;
  source: 'summarizer' | 'fallback';
}

export interface KnowledgeHitView {
  chunkId: string;
  text: string;
  score: number;
  rank: number;
  kind: 'summary' | 'archive';
  summaryId?: string;
  /** The mem session the chunk was indexed from (`chunk.metadata.sessionId`). */
  sessionId: string;
  /**
   * True when that is the session the context is for; false for a hit from another session of
   * the same user (a replay with a user: an earlier session of the conversation).
   */
  currentSession: boolean;
  /** When what the chunk holds was said: its oldest message, else the chunk's time (ms). */
  at: number;
}

/** Everything the page shows for one selected turn. */
export interface TurnDetail {
  turn: TurnSnapshot;
  context: ContextItem[];
  history: HistoryItem[];
  /** Summaries that exist at this turn. */
  summaries: SummaryView[];
  knowledgeHits: KnowledgeHitView[];
}

/** A context item of an answer to a question: `question` is the question itself (not stored). */
export interface AskContextItem extends Omit<ContextItem, 'kind'> {
  kind: ContextItem['kind'] | 'question';
}

/** A knowledge-base hit in an answer to a question, with the history messages it quotes. */
export interface AskHitView extends KnowledgeHitView {
  /** Tokens of the chunk's text. */
  tokens: number;
  /** Ids of the history messages the chunk holds (`chunk.metadata.messageIds`). */
  messageIds: string[];
}

/** A history message the context of a question brings back, and how. */
export interface PresentMessage {
  id: string;
  /** `window`: sent as it is; `retrieved`: quoted by a retrieved chunk (and not in the window). */
  how: 'window' | 'retrieved';
}

/**
 * What the next LLM call would get if `question` were asked now, after the replay (and any chat
 * turns since): nothing is stored, and the thread is unchanged.
 */
export interface AskAnswer {
  question: string;
  /** Turns of the thread the question was asked after. */
  turns: number;
  /** System prompts, summary, retrieved knowledge, the window, then the question. */
  context: AskContextItem[];
  /** Prompt tokens of the context, reply priming included. */
  tokenCount: number;
  /** The newest interaction (here: the question) was cut to fit the budget. */
  truncated: boolean;
  /** The knowledge-base chunks the context includes, best first. */
  knowledgeHits: AskHitView[];
  /** History messages the context brings back, oldest first. */
  present: PresentMessage[];
}

/**
 * A replay with a user: the mem session each session of the conversation became (all of the
 * user), and the new session of the user that questions and the chat run in.
 */
export interface UserReplayView {
  id: string;
  sessions: { sessionId: string; conversationSessionId: string; title: string }[];
  chatSessionId: string;
}

/** A fact the memory keeps about the user (core's `UserFact`), as the facts panel shows it. */
export interface UserFactView {
  id: string;
  text: string;
  /** What it is about (`name`, `location`, `preference:email`): a newer fact about it replaces it. */
  about?: string;
  /** The mem session it was learnt in (absent when it was set through the API). */
  sessionId?: string;
  /** The messages it was learnt from, oldest first. */
  sourceMessageIds: string[];
  /** When it was first learnt and last changed (ms). */
  createdAt: number;
  updatedAt: number;
}

export interface ReplayStats {
  turns: number;
  messages: number;
  /** Sum over turns of the history that existed vs what was sent. */
  tokensStored: number;
  tokensSent: number;
  compactions: number;
  erasures: number;
  /** tokensSent / tokensStored: the share of the history the LLM received (1 while empty). */
  sentShare: number;
  /** Mean summaryTokens / originalTokens over compactions (null without any). */
  compressionRatio: number | null;
  msPerTurn: number;
  totalMs: number;
}
