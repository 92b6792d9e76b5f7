import type { MemoryProfile } from '../config/parse-profile.ts';
import type { KnowledgeChunk, KnowledgeHit } from '../knowledge/knowledge-base-spec.ts';
import type { Interaction } from '../model/interaction.ts';
import type { CountedMessage } from '../model/message.ts';
import type { EngineContext } from './engine-context.ts';

/** First line of the message that carries retrieved knowledge. */
export const KNOWLEDGE_HEADER = 'Relevant memory from earlier in this conversation:';

interface Frame {
  base: number;
  perLine: number;
  /** A day line's price before the exact count: the widest the line can be. */
  dayEstimate: number;
  /** Exact prices of day lines seen, by the minute they show (see `minuteOf`), bounded. */
  dayLines: Map<number, number>;
}

const frames = new WeakMap<EngineContext['counter'], Frame>();
/** Enough for the chunks of a 10,000-interaction session, so lines priced at indexing stay. */
const MAX_PRICED_DAY_LINES = 32_768;

function frameTokens(ctx: EngineContext): Frame {
  let frame = frames.get(ctx.counter);
  if (frame === undefined) {
    const base = ctx.counter.countMessage({
      id: 'k',
      role: 'system',
      content: KNOWLEDGE_HEADER,
      createdAt: 0,
    });
    const perLine = ctx.counter.countText('\n');
    const dayEstimate = perLine + ctx.counter.countText('[2000-01-01 00:00]') + 1;
    frame = { base, perLine, dayEstimate, dayLines: new Map() };
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

/** True when every message the hit quotes is shown anyway (or it is an active summary). */
export function isRepeat(hit: KnowledgeHit, shown: Shown): boolean {
  const { kind, summaryId, messageIds } = hit.chunk.metadata;
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
  // Pick by rank with an estimate for the day lines, then price exactly and trim if needed.
  let estimate = frame.base;
  const kept: KnowledgeHit[] = [];
  const days = new Set<number>();
  for (const hit of hits) {
    if (kept.length >= room.maxHits) break;
    if (isRepeat(hit, room.shown)) continue;
    const day = dayOf(hit);
    const next =
      estimate + (days.has(day) ? 0 : frame.dayEstimate) + frame.perLine + hit.chunk.tokenCount;
    if (next > room.tokens) continue;
    estimate = next;
    days.add(day);
    kept.push(hit);
  }
  while (kept.length > 0) {
    const rendered = render(ctx, kept, frame);
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

/** The message text for `kept` (oldest first, a line per day) and its price. */
function render(
  ctx: EngineContext,
  kept: readonly KnowledgeHit[],
  frame: Frame,
): { content: string; tokens: number } {
  const ordered = [...kept].sort(
    (a, b) => startOf(a) - startOf(b) || a.chunk.id.localeCompare(b.chunk.id),
  );
  const lines = [KNOWLEDGE_HEADER];
  let tokens = frame.base;
  let day: number | undefined;
  for (const hit of ordered) {
    const d = dayOf(hit);
    if (d !== day) {
      const start = startOf(hit);
      lines.push(dayLine(start));
      tokens += frame.perLine + dayLineTokens(ctx, frame, start);
    }
    day = d;
    lines.push(hit.chunk.text);
    tokens += frame.perLine + hit.chunk.tokenCount;
  }
  return { content: lines.join('\n'), tokens };
}

const startOf = (hit: KnowledgeHit) => hit.chunk.metadata.start ?? hit.chunk.metadata.createdAt;
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
