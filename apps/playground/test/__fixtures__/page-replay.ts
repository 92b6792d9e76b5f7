/**
 * Waiting on the playground page without sleeping: a replay is settled when its POST /api/replay
 * answered and the selected turn's stored history (which holds that turn's user message) is shown.
 */
import type { Page } from 'playwright-core';
import type { ReplayStats } from '../../src/replay/replay-types.ts';
import type { ReplayResponse } from '../../src/server/contract.ts';

export type ReplayAnswer = ReplayResponse;

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

/** The stats bar as shown: label → value (`tokens sent` → `1,234 (−56.7%)`). */
export async function statsShown(page: Page): Promise<Record<string, string>> {
  const rows = await page
    .locator('#stats > div')
    .evaluateAll((divs) =>
      divs.map((d) => [
        d.querySelector('dt')?.textContent ?? '',
        d.querySelector('dd')?.textContent ?? '',
      ]),
    );
  return Object.fromEntries(rows);
}

/** The stats bar the page should show for these stats: the server's numbers, formatted. */
export function expectedStats(stats: ReplayStats): Record<string, string> {
  const n = (value: number) => value.toLocaleString('en-US');
  const saved = (Math.round((1 - stats.sentShare) * 1000) / 10).toFixed(1);
  return {
    turns: n(stats.turns),
    'tokens stored': n(stats.tokensStored),
    'tokens sent': `${n(stats.tokensSent)} (−${saved}%)`,
    compactions: n(stats.compactions),
    erasures: n(stats.erasures),
    ratio: stats.compressionRatio === null ? '—' : stats.compressionRatio.toFixed(2),
  };
}

/** How many elements match, in the page. */
export function count(page: Page, selector: string): Promise<number> {
  return page.locator(selector).count();
}
