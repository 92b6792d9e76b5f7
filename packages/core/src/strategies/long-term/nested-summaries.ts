import type { SummaryRecord } from '../../store/store-spec.ts';

/**
 * The given summaries and every summary they folded in, transitively, with the ids of every
 * message they archived: what erasing those summaries must also forget.
 */
export function nestedSummaries(
  ids: readonly string[],
  records: readonly SummaryRecord[],
): { summaryIds: string[]; archivedIds: string[] } {
  const byId = new Map(records.map((r) => [r.id, r]));
  const out = new Set<string>();
  const archived: string[] = [];
  const visit = (id: string | undefined) => {
    if (id === undefined || out.has(id)) return;
    out.add(id);
    const record = byId.get(id);
    if (record === undefined) return;
    archived.push(...record.originalMessageIds);
    visit(record.previousSummaryId);
  };
  for (const id of ids) visit(id);
  return { summaryIds: [...out], archivedIds: archived };
}
