/**
 * Waiting on the playground page without sleeping: a replay is settled when its POST /api/replay
 * answered and the selected turn's stored history (which holds that turn's user message) is shown.
 */
import type { Page } from 'playwright-core';

export interface ReplayAnswer {
  turns: { index: number; sessionId: string; userMessageId: string; events: { kind: string }[] }[];
  stats: { turns: number; compactions: number; erasures: number; totalMs: number };
}

/** Resolves with the body of the next successful POST /api/replay (call before the action). */
export function nextReplay(page: Page, timeout = 120_000): Promise<ReplayAnswer> {
  return page
    .waitForResponse(
      (r) =>
        new URL(r.url()).pathname === '/api/replay' &&
        r.request().method() === 'POST' &&
        r.status() === 200,
      { timeout },
    )
    .then((r) => r.json() as Promise<ReplayAnswer>);
}

/** Waits until the page shows this turn: label, and the turn's own user message in the history. */
export async function waitForTurnShown(
  page: Page,
  answer: ReplayAnswer,
  index: number,
  timeout = 120_000,
): Promise<void> {
  const turn = answer.turns[index];
  if (turn === undefined) throw new Error(`no turn ${index} in a replay of ${answer.turns.length}`);
  await page.waitForSelector('#replay-status[data-state="done"]', { timeout });
  await page.waitForFunction(
    ([n, total]) => {
      const label = /^Turn ([\d,]+) \/ ([\d,]+)/.exec(
        document.querySelector('#turn-label')?.textContent ?? '',
      );
      return label?.[1]?.replaceAll(',', '') === n && label?.[2]?.replaceAll(',', '') === total;
    },
    [String(index + 1), String(answer.turns.length)],
    { timeout },
  );
  await page.waitForSelector(
    `#history .history-item[data-id=${JSON.stringify(turn.userMessageId)}]`,
    {
      timeout,
    },
  );
}

/** How many elements match, in the page. */
export function count(page: Page, selector: string): Promise<number> {
  return page.locator(selector).count();
}
