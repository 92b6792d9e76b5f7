import type { InteractionLog } from '../../model/interaction-log.ts';
import { isSummaryMessage } from '../../model/message.ts';
import type { StoredMessage } from '../../store/store-spec.ts';

/** What a long-term strategy will replace: everything older than the kept interactions. */
export interface PrefixPlan {
  /** The messages to summarize or erase, oldest first (earlier summaries included). */
  readonly replaced: StoredMessage[];
  readonly throughSeq: number;
  /** System prompts inside the range: pinned, they stay active and are never summarized. */
  readonly keepSeqs: number[];
  /** Interactions in the range. */
  readonly interactions: number;
  /** The newest earlier summary folded in, if any. */
  readonly previousSummary: StoredMessage | undefined;
}

/**
 * System prompts are pinned: never summarized or erased. Summaries and added context
 * (`metadata.kind` `'summary'` or `'context'`) are history like the turns, and are folded in.
 */
export function isPinned(message: StoredMessage): boolean {
  const kind = message.metadata?.kind;
  return message.role === 'system' && kind !== 'summary' && kind !== 'context';
}

/**
 * Plans the prefix before the last `keep` interactions. Undefined when there is no interaction
 * to replace.
 */
export function planPrefix(
  log: InteractionLog<StoredMessage>,
  keep: number,
): PrefixPlan | undefined {
  const count = log.interactions.length - keep;
  if (count <= 0) return undefined;
  const boundary = log.interactions[count]?.messages[0]?.seq ?? Number.POSITIVE_INFINITY;
  const prefix: StoredMessage[] = [];
  for (const m of log.system) if (m.seq < boundary) prefix.push(m);
  for (let i = 0; i < count; i++) prefix.push(...log.interactions[i]!.messages);
  prefix.sort((a, b) => a.seq - b.seq);

  const replaced: StoredMessage[] = [];
  const pinned: number[] = [];
  for (const m of prefix) {
    if (isPinned(m)) pinned.push(m.seq);
    else replaced.push(m);
  }
  const last = replaced.at(-1);
  if (last === undefined) return undefined;
  return {
    replaced,
    throughSeq: last.seq,
    keepSeqs: pinned.filter((seq) => seq < last.seq),
    interactions: count,
    previousSummary: replaced.filter(isSummaryMessage).at(-1),
  };
}
