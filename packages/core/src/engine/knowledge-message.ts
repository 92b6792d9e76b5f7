import type { MemoryProfile } from '../config/parse-profile.ts';
import type { KnowledgeChunk, KnowledgeHit } from '../knowledge/knowledge-base-spec.ts';
import type { Interaction } from '../model/interaction.ts';
import type { CountedMessage } from '../model/message.ts';
import type { EngineContext } from './engine-context.ts';

/** First line of the message that carries retrieved knowledge. */
export const KNOWLEDGE_HEADER = 'Relevant memory from earlier in this conversation:';
/** Its first line when some of it comes from the user's other sessions (`scope: "user"`). */
export const USER_KNOWLEDGE_HEADER =
  'Relevant memory from earlier in this conversation and from other conversations with this user:';

interface Frame {
  base: number;
  /** `base` with the user header. */
  userBase: number;
  perLine: number;
  /** A day line's price before the exact count: the widest the line can be. */
  dayEstimate: number;
  /** Exact prices of day lines seen, by the minute they show (see `minuteOf`), bounded. */
  dayLines: Map<number, number>;
  /** Exact prices of lines heading another session's hits, by their text, bounded. */
  otherLines: Map<string, number>;
}

const frames = new WeakMap<EngineContext['counter'], Frame>();
/** Enough for the chunks of a 10,000-interaction session, so lines priced at indexing stay. */
const MAX_PRICED_DAY_LINES = 32_768;

function frameTokens(ctx: EngineContext): Frame {
  let frame = frames.get(ctx.counter);
  if (frame === undefined) {
    const price = (content: string) =>
      ctx.counter.countMessage({ id: 'k', role: 'system', content, createdAt: 0 });
    const base = price(KNOWLEDGE_HEADER);
    const userBase = price(USER_KNOWLEDGE_HEADER);
    const perLine = ctx.counter.countText('\n');
    const dayEstimate = perLine + ctx.counter.countText('[2000-01-01 00:00]') + 1;
    frame = { base, userBase, perLine, dayEstimate, dayLines: new Map(), otherLines: new Map() };
    frames.set(ctx.counter, frame);
  }
  return frame;
}

/** The price of the day line for a hit starting at `ms`, counted once per minute shown. */
function dayLineTokens(ctx: EngineContext, frame: Frame, ms: number): number {
  const minute = minuteOf(ms);
  let tokens = frame.dayLines.get(minute);
  if (tokens === undefined) {
    tokens = ctx.counter.countText(dayLine(ms));
    if (frame.dayLines.size >= MAX_PRICED_DAY_LINES) frame.dayLines.clear();
    frame.dayLines.set(minute, tokens);
  }
  return tokens;
}

/** The price of the line heading a hit of another session (see `otherLine`), counted once. */
function otherLineTokens(ctx: EngineContext, frame: Frame, line: string): number {
  let tokens = frame.otherLines.get(line);
  if (tokens === undefined) {
    tokens = ctx.counter.countText(line);
    if (frame.otherLines.size >= MAX_PRICED_DAY_LINES) frame.otherLines.clear();
    frame.otherLines.set(line, tokens);
  }
  return tokens;
}

/**
 * Prices the day lines the chunks would show, ahead of any search (indexing runs in the
 * background): a context with their hits then counts no line.
 */
export function priceDayLines(ctx: EngineContext, chunks: readonly KnowledgeChunk[]): void {
  const frame = frameTokens(ctx);
  for (const chunk of chunks) {
    dayLineTokens(ctx, frame, chunk.metadata.start ?? chunk.metadata.createdAt);
  }
}

/** What the knowledge message may hold, and what it must not repeat. */
export interface KnowledgeRoom {
  /** Tokens the message may take, frame included (Infinity: no short-term budget). */
  tokens: number;
  /** At most this many hits. */
  maxHits: number;
  /** Ids of messages the prompt shows anyway: hits made only of these are dropped. */
  shown: Shown;
  /**
   * The session the prompt is for: `shown` holds its message ids, and hits of other sessions of
   * its user (never repeats: message ids are unique only within a session) are labelled as such.
   * Undefined: every hit is taken as this session's.
   */
  sessionId?: string;
}

/** A set of message ids, as far as `isRepeat` reads it. */
export type Shown = Pick<ReadonlySet<string>, 'has'>;

/**
 * The budget rule. With a short-term budget B (the tightest `memory_max_tokens`):
 * 1. pinned system prompts, the summary, the newest interaction and reply priming come first;
 * 2. of what is left (R), the recent window claims what its interactions need, at most
 *    (1 - knowledge_share) x R, and retrieved knowledge may fill the rest (at most `top_k` hits);
 * 3. the window then takes whatever knowledge did not use.
 * Without a short-term strategy there is no token limit: up to `top_k` hits.
 */
export function knowledgeRoom(
  ctx: EngineContext,
  system: readonly CountedMessage[],
  interactions: readonly Interaction[],
  shortTerm: MemoryProfile['shortTerm'],
  share: number,
  maxHits: number,
  sessionId?: string,
): KnowledgeRoom & { shown: ReadonlySet<string> } {
  const room = knowledgeRoomOf(ctx, system, interactions, shortTerm, share, maxHits);
  return sessionId === undefined ? room : { ...room, sessionId };
}

function knowledgeRoomOf(
  ctx: EngineContext,
  system: readonly CountedMessage[],
  interactions: readonly Interaction[],
  shortTerm: MemoryProfile['shortTerm'],
  share: number,
  maxHits: number,
): KnowledgeRoom & { shown: ReadonlySet<string> } {
  const newest = interactions.at(-1);
  const shown = new Set<string>();
  for (const m of newest?.messages ?? []) shown.add(m.id);
  // System messages are always shown: an active summary's own chunks are repeats.
  for (const m of system) shown.add(m.id);
  const budgets = shortTerm.map((s) => s.config.memory_max_tokens);
  if (budgets.length === 0) return { tokens: Number.POSITIVE_INFINITY, maxHits, shown };
  const budget = Math.min(...budgets);
  let fixed = ctx.counter.replyPrimingTokens + (newest?.tokenCount ?? 0);
  for (const m of system) fixed += m.tokenCount;
  const rest = budget - fixed;
  if (rest <= 0) return { tokens: 0, maxHits, shown };
  // The window's claim: the newest interactions that fit (1 - share) of the rest.
  const cap = Math.floor((1 - share) * rest);
  let claim = 0;
  for (let i = interactions.length - 2; i >= 0; i--) {
    const interaction = interactions[i]!;
    if (claim + interaction.tokenCount > cap) break;
    claim += interaction.tokenCount;
    for (const m of interaction.messages) shown.add(m.id);
  }
  return { tokens: rest - claim, maxHits, shown };
}

/**
 * True when every message the hit quotes is shown anyway (or it is an active summary). With
 * `sessionId`, a hit of another session is never a repeat: `shown` holds this session's ids.
 */
export function isRepeat(hit: KnowledgeHit, shown: Shown, sessionId?: string): boolean {
  const { kind, summaryId, messageIds } = hit.chunk.metadata;
  if (sessionId !== undefined && hit.chunk.metadata.sessionId !== sessionId) return false;
  if (kind === 'summary' && summaryId !== undefined && shown.has(summaryId)) return true;
  return messageIds.length > 0 && messageIds.every((id) => shown.has(id));
}

/**
 * Turns hits into one system message within `room`: the best-ranked hits that fit, shown
 * oldest first under a `[date time]` line per day (UTC), so "when" questions find their date.
 * Chunks were counted when indexed; lines are joined with "\n", where BPE does not merge
 * across, so the message is priced without tokenizing the chunks again.
 */
export function knowledgeMessage(
  ctx: EngineContext,
  hits: readonly KnowledgeHit[],
  room: KnowledgeRoom,
): { message: CountedMessage | undefined; hits: KnowledgeHit[] } {
  const frame = frameTokens(ctx);
  const here = room.sessionId;
  // Pick by rank with an estimate for the day lines, then price exactly and trim if needed.
  let estimate = frame.base;
  let others = false;
  const kept: KnowledgeHit[] = [];
  const groups = new Set<string>();
  for (const hit of hits) {
    if (kept.length >= room.maxHits) break;
    if (isRepeat(hit, room.shown, here)) continue;
    const other = isOther(hit, here);
    const group = groupOf(hit, other);
    const line = groups.has(group)
      ? 0
      : other
        ? frame.perLine + otherLineTokens(ctx, frame, otherLine(hit))
        : frame.dayEstimate;
    const header = other && !others ? frame.userBase - frame.base : 0;
    const next = estimate + header + line + frame.perLine + hit.chunk.tokenCount;
    if (next > room.tokens) continue;
    estimate = next;
    others ||= other;
    groups.add(group);
    kept.push(hit);
  }
  while (kept.length > 0) {
    const rendered = render(ctx, kept, frame, here);
    if (rendered.tokens <= room.tokens) {
      const message: CountedMessage = {
        id: `knowledge_${kept.map((h) => h.chunk.id).join('|')}`,
        role: 'system',
        content: rendered.content,
        createdAt: ctx.now(),
        metadata: { kind: 'knowledge', chunkIds: kept.map((h) => h.chunk.id) },
        tokenCount: rendered.tokens,
      };
      return { message, hits: kept };
    }
    kept.pop();
  }
  return { message: undefined, hits: [] };
}

/**
 * The message text for `kept` (oldest first, a line per day; hits of another session under a
 * line per session and day that says so) and its price.
 */
function render(
  ctx: EngineContext,
  kept: readonly KnowledgeHit[],
  frame: Frame,
  here: string | undefined,
): { content: string; tokens: number } {
  const ordered = [...kept].sort(
    (a, b) => startOf(a) - startOf(b) || a.chunk.id.localeCompare(b.chunk.id),
  );
  const others = ordered.some((hit) => isOther(hit, here));
  const lines = [others ? USER_KNOWLEDGE_HEADER : KNOWLEDGE_HEADER];
  let tokens = others ? frame.userBase : frame.base;
  let group: string | undefined;
  for (const hit of ordered) {
    const other = isOther(hit, here);
    const g = groupOf(hit, other);
    if (g !== group) {
      if (other) {
        const line = otherLine(hit);
        lines.push(line);
        tokens += frame.perLine + otherLineTokens(ctx, frame, line);
      } else {
        const start = startOf(hit);
        lines.push(dayLine(start));
        tokens += frame.perLine + dayLineTokens(ctx, frame, start);
      }
    }
    group = g;
    lines.push(hit.chunk.text);
    tokens += frame.perLine + hit.chunk.tokenCount;
  }
  return { content: lines.join('\n'), tokens };
}

const startOf = (hit: KnowledgeHit) => hit.chunk.metadata.start ?? hit.chunk.metadata.createdAt;
/** True for a hit of another session than `here` (the user's other sessions). */
const isOther = (hit: KnowledgeHit, here: string | undefined) =>
  here !== undefined && hit.chunk.metadata.sessionId !== here;
/** Hits under one heading line: this session's by day; another session's by session and day. */
const groupOf = (hit: KnowledgeHit, other: boolean) =>
  other ? `${dayOf(hit)} ${hit.chunk.metadata.sessionId}` : String(dayOf(hit));
/**
 * The line heading hits of another session of the user: its day line's time, "another
 * conversation" and a short label of the session (`[2026-01-05 14:03, another conversation:
 * support-17]`), so the model tells "earlier here" from "in another chat, on that day".
 */
export const otherLine = (hit: KnowledgeHit): string => {
  const label = sessionLabel(hit.chunk.metadata.sessionId);
  const time = dayLine(startOf(hit)).slice(1, -1);
  return `[${time}, another conversation${label === '' ? '' : `: ${label}`}]`;
};
/** Up to 24 characters of a session id that read as a label (letters, digits, `_.:-`). */
function sessionLabel(sessionId: string): string {
  const kept = sessionId.replace(/[^A-Za-z0-9_.:-]/g, '');
  return kept.length <= 24 ? kept : `${kept.slice(0, 23)}…`;
}
/** The line heading a day's hits: `[YYYY-MM-DD HH:MM]` (UTC) of the first one shown. */
const dayLine = (ms: number) => `[${isoOf(ms).slice(0, 16).replace('T', ' ')}]`;
/**
 * The minute `dayLine` shows, as a number: equal numbers, equal lines (Date drops the fraction
 * of a millisecond first). A time Date cannot show (every such line is `[undated]`): -Infinity.
 */
function minuteOf(ms: number): number {
  const time = new Date(ms).getTime();
  return Number.isNaN(time) ? Number.NEGATIVE_INFINITY : Math.floor(time / 60_000);
}
const DAY_MS = 86_400_000;
/** The UTC day a hit starts on, as a number (cheap to compare; the line is made only when shown). */
const dayOf = (hit: KnowledgeHit) => Math.floor(startOf(hit) / DAY_MS);
/** ISO 8601 in UTC; a time outside what Date can show (any number is a valid createdAt) stays undated. */
function isoOf(ms: number): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? 'undated' : date.toISOString();
}
