/**
 * The Memory Manager's data model, exactly as its reference document describes it. Every entry is
 * one message stored by the engine (same id): `entry-mapping.ts` documents the correspondence.
 */

/** What an entry holds. */
export type MemoryEntryType = 'message' | 'tool_call' | 'tool_result' | 'context' | 'summary';

/** Who an entry is attributed to: `tool_result`, `context` and `summary` entries are `system`. */
export type MemoryEntryRole = 'user' | 'assistant' | 'system';

/** One thing the conversation holds: a message, a tool call or result, added context, a summary. */
export interface MemoryEntry {
  id: string;
  type: MemoryEntryType;
  role: MemoryEntryRole;
  /** The text; for a `tool_call`, the call's arguments as JSON text. */
  content: string;
  timestamp: Date;
  /** Prompt tokens of the entry (chat overhead included), counted once when it was added. */
  tokenCount: number;
  /** True when a summary replaced the entry; the entry is archived, not deleted. */
  compressed: boolean;
  /** If compressed, which summary replaced it. */
  summaryId?: string;
  metadata?: Record<string, unknown>;
}

/** A summary and what it replaced. */
export interface MemorySummary {
  /** Also the id of the `summary` entry holding it. */
  id: string;
  /** The summary text. */
  content: string;
  /** Entries this summary replaced, oldest first (an earlier summary included, when folded in). */
  originalEntryIds: string[];
  /** Tokens of the summary entry. */
  tokenCount: number;
  /** Tokens of the entries it replaced. */
  originalTokenCount: number;
  /** originalTokenCount / tokenCount, e.g. 3.5 for 3.5x compression. */
  compressionRatio: number;
  createdAt: Date;
  /** Timestamps of the oldest and newest replaced entry. */
  timeRange: { start: Date; end: Date };
}

/** A whole session, for persistence: `exportSession` returns it, `importSession` restores it. */
export interface MemorySessionState {
  sessionId: string;
  /** Every entry, compressed ones included, in conversation order. */
  entries: MemoryEntry[];
  /** Every summary, oldest first. */
  summaries: MemorySummary[];
  /** Sum of `tokenCount` over all entries (compressed ones and summaries included). */
  totalTokens: number;
}

/** What `importSession` accepts: an exported state (JSON-parsed is fine: dates may be ISO strings). */
export interface MemorySessionStateInput {
  sessionId: string;
  entries: Array<Omit<MemoryEntry, 'timestamp'> & { timestamp: Date | string | number }>;
  summaries: Array<
    Omit<MemorySummary, 'createdAt' | 'timeRange'> & {
      createdAt: Date | string | number;
      timeRange: { start: Date | string | number; end: Date | string | number };
    }
  >;
  /** Checked against the entries when given. */
  totalTokens?: number;
}

/** Usage figures of one session. */
export interface MemoryStats {
  /** All entries: active, compressed, and summaries. */
  totalEntries: number;
  /** Entries not compressed (what the next context is built from). */
  activeEntries: number;
  compressedEntries: number;
  summaries: number;
  /** Tokens of all entries. */
  totalTokens: number;
  /** Tokens of the active entries. */
  activeTokens: number;
}

/** What one compression did. */
export interface CompressionResult {
  summary: MemorySummary;
  /** originalTokenCount - summary tokenCount (negative if a tiny history got a longer summary). */
  tokensSaved: number;
  /** Entries the summary replaced (an earlier summary folded in counts as one). */
  entriesCompressed: number;
  /** `fallback`: the summarize callback failed or none is set; the extractive summary was used. */
  source: 'summarizer' | 'fallback';
  durationMs: number;
}
