import type { TurnDetail } from '../replay/replay-types.ts';
import type { TurnPageResponse } from './contract.ts';
import { HttpError } from './http-json.ts';

const MAX_LIMIT = 5000;

function integer(query: URLSearchParams, name: string, min: number, max: number): number {
  const raw = query.get(name) ?? '';
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max) {
    throw new HttpError(
      400,
      `"${name}" must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}.`,
    );
  }
  return value;
}

/**
 * One page of the turn's history: `historyLimit` messages from `historyOffset`, around the message
 * `historyAround`, or (neither given) the latest ones.
 */
export function pageHistory(detail: TurnDetail, query: URLSearchParams): TurnPageResponse {
  const limit = integer(query, 'historyLimit', 1, MAX_LIMIT);
  const total = detail.history.length;
  let offset = total - limit;
  const around = query.get('historyAround');
  if (around !== null) {
    const at = detail.history.findIndex((m) => m.id === around);
    if (at === -1)
      throw new HttpError(
        404,
        `Message ${JSON.stringify(around)} is not in the history of this turn.`,
      );
    offset = at - Math.min(10, Math.floor(limit / 4));
  } else if (query.has('historyOffset')) {
    offset = integer(query, 'historyOffset', 0, Number.MAX_SAFE_INTEGER);
  }
  offset = Math.max(0, Math.min(offset, total - limit));
  const counts = { active: 0, archived: 0, erased: 0 };
  for (const m of detail.history) counts[m.state]++;
  return {
    ...detail,
    history: detail.history.slice(offset, offset + limit),
    historyPage: { offset, total, counts },
  };
}
