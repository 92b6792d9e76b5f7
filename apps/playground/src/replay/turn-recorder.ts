import type { CountedMessage, KnowledgeHit, MemoryContext, SummaryRecord } from '@mem/core';
import { displayText, MessageTable } from './message-table.ts';
import type {
  ContextItem,
  HistoryItem,
  KnowledgeHitView,
  ReplayStats,
  SummaryView,
  TurnDetail,
  TurnSnapshot,
} from './replay-types.ts';

/** A run of consecutive table numbers `[from, to]`, or an item kept as is (retrieved knowledge). */
type ContextRef = readonly [number, number] | ContextItem;

/**
 * What a replay keeps to answer `detail(turn)` for any turn without storing history per turn:
 * each message once, the turn it was appended, archived and erased in, and per turn only the
 * context (as runs of message numbers) and the knowledge hits. History at turn i is derived.
 */
export class TurnRecorder {
  readonly table = new MessageTable();
  readonly turns: TurnSnapshot[] = [];
  private readonly originals: number[] = [];
  private readonly appendedIn: number[] = [];
  private readonly archivedBy = new Map<string, { turn: number; summaryId: string }>();
  private readonly erasedIn = new Map<string, number>();
  private readonly summaries: (SummaryView & { erasedIn?: number })[] = [];
  private readonly summaryIds = new Set<string>();
  private readonly contexts: ContextRef[][] = [];
  private readonly hits: KnowledgeHitView[][] = [];
  private liveTokens = 0;

  /** Tokens of everything said so far: active and archived originals, erased ones excluded. */
  get historyTokens(): number {
    return this.liveTokens;
  }

  get messageCount(): number {
    return this.originals.length;
  }

  appended(messages: readonly CountedMessage[], turn: number): void {
    for (const m of messages) {
      this.originals.push(this.table.add(m));
      this.appendedIn.push(turn);
      this.liveTokens += m.tokenCount;
    }
  }

  compacted(
    record: SummaryRecord,
    source: SummaryView['source'],
    turn: number,
    message: CountedMessage | undefined,
  ): void {
    if (message !== undefined) this.table.add(message);
    this.summaryIds.add(record.id);
    for (const id of record.originalMessageIds) {
      if (!this.archivedBy.has(id)) this.archivedBy.set(id, { turn, summaryId: record.id });
    }
    this.summaries.push({
      id: record.id,
      text: this.table.get(record.id)?.text ?? '',
      turn,
      originalMessageIds: record.originalMessageIds,
      originalTokens: record.originalTokenCount,
      summaryTokens: record.tokenCount,
      ratio: record.tokenCount / record.originalTokenCount,
      start: record.timeRange.start,
      end: record.timeRange.end,
      source,
    });
  }

  /** Marks as erased at `turn` every original and summary not in the surviving sets. */
  erased(
    survivingMessages: ReadonlySet<string>,
    survivingSummaries: ReadonlySet<string>,
    turn: number,
  ) {
    this.originals.forEach((n) => {
      const entry = this.table.entries[n]!;
      if (this.erasedIn.has(entry.id) || survivingMessages.has(entry.id)) return;
      this.erasedIn.set(entry.id, turn);
      this.liveTokens -= entry.tokens;
    });
    for (const s of this.summaries) {
      if (s.erasedIn === undefined && !survivingSummaries.has(s.id)) s.erasedIn = turn;
    }
  }

  /**
   * Keeps the context of the turn being recorded (call once per turn, in order); `sessionId` is
   * the mem session it was built for (its knowledge hits say whether they come from it).
   */
  context(context: MemoryContext, sessionId: string): void {
    const refs: ContextRef[] = [];
    for (const m of context.messages) {
      const n = this.table.numberOf(m.id);
      const last = refs.at(-1);
      if (n === undefined || this.table.entries[n]!.tokens !== m.tokenCount) {
        refs.push(this.item(m, undefined));
      } else if (Array.isArray(last) && last[1] === n - 1) {
        refs[refs.length - 1] = [last[0], n];
      } else refs.push([n, n]);
    }
    this.contexts.push(refs);
    this.hits.push(context.knowledge.map((hit) => hitView(hit, sessionId)));
  }

  /** The items of a context that is not recorded (e.g. the context for a question). */
  contextItems(messages: readonly CountedMessage[]): ContextItem[] {
    return messages.map((m) => this.item(m, undefined));
  }

  /** Ids of the original messages not erased (active or archived), oldest first. */
  survivingIds(): string[] {
    const ids: string[] = [];
    for (const n of this.originals) {
      const { id } = this.table.entries[n]!;
      if (!this.erasedIn.has(id)) ids.push(id);
    }
    return ids;
  }

  detail(turn: number): TurnDetail {
    const snapshot = this.turns[turn];
    if (snapshot === undefined) {
      throw new RangeError(
        `[mem/playground] no turn ${turn}: the replay has turns 0 to ${this.turns.length - 1}`,
      );
    }
    const context: ContextItem[] = [];
    for (const ref of this.contexts[turn] ?? []) {
      if (!Array.isArray(ref)) context.push(ref as ContextItem);
      else for (let n = ref[0]; n <= ref[1]; n++) context.push(this.item(undefined, n));
    }
    const history: HistoryItem[] = [];
    for (let k = 0; k < this.originals.length && this.appendedIn[k]! <= turn; k++) {
      const { id, role, text, tokens, toolName, isError } = this.table.entries[this.originals[k]!]!;
      const item: HistoryItem = { id, role, text, tokens, state: 'active' };
      const archived = this.archivedBy.get(id);
      if ((this.erasedIn.get(id) ?? Number.POSITIVE_INFINITY) <= turn) item.state = 'erased';
      else if (archived !== undefined && archived.turn <= turn) {
        item.state = 'archived';
        item.summaryId = archived.summaryId;
      }
      if (toolName !== undefined) item.toolName = toolName;
      if (isError !== undefined) item.isError = isError;
      history.push(item);
    }
    const summaries = this.summaries
      .filter((s) => s.turn <= turn && !(s.erasedIn !== undefined && s.erasedIn <= turn))
      .map(({ erasedIn: _erased, ...s }) => s);
    return { turn: snapshot, context, history, summaries, knowledgeHits: this.hits[turn] ?? [] };
  }

  stats(totalMs: number): ReplayStats {
    let tokensStored = 0;
    let tokensSent = 0;
    let compactions = 0;
    let erasures = 0;
    for (const t of this.turns) {
      tokensStored += t.historyTokens;
      tokensSent += t.promptTokens;
      for (const e of t.events) {
        if (e.kind === 'compaction') compactions++;
        else erasures++;
      }
    }
    const ratios = this.summaries.map((s) => s.ratio);
    return {
      turns: this.turns.length,
      messages: this.originals.length,
      tokensStored,
      tokensSent,
      compactions,
      erasures,
      sentShare: tokensStored === 0 ? 1 : tokensSent / tokensStored,
      compressionRatio:
        ratios.length === 0 ? null : ratios.reduce((a, b) => a + b, 0) / ratios.length,
      msPerTurn: this.turns.length === 0 ? 0 : totalMs / this.turns.length,
      totalMs,
    };
  }

  private item(m: CountedMessage | undefined, n: number | undefined): ContextItem {
    const entry = m === undefined ? this.table.entries[n!]! : undefined;
    const id = m?.id ?? entry!.id;
    const role = m?.role ?? entry!.role;
    const kind: ContextItem['kind'] =
      m?.metadata?.kind === 'knowledge'
        ? 'knowledge'
        : m?.metadata?.kind === 'user_facts'
          ? 'facts'
          : this.summaryIds.has(id) || m?.metadata?.kind === 'summary'
            ? 'summary'
            : role === 'system'
              ? 'system'
              : 'window';
    if (m !== undefined) {
      return { kind, id, role, text: displayText(m), tokens: m.tokenCount };
    }
    return { kind, id, role, text: entry!.text, tokens: entry!.tokens };
  }
}

/** A knowledge hit as the page shows it, labelled by the session it came from. */
export function hitView(hit: KnowledgeHit, sessionId: string): KnowledgeHitView {
  const { metadata } = hit.chunk;
  const view: KnowledgeHitView = {
    chunkId: hit.chunk.id,
    text: hit.chunk.text,
    score: hit.score,
    rank: hit.rank,
    kind: metadata.kind,
    sessionId: metadata.sessionId,
    currentSession: metadata.sessionId === sessionId,
    at: metadata.start ?? metadata.createdAt,
  };
  if (metadata.summaryId !== undefined) view.summaryId = metadata.summaryId;
  return view;
}
