/**
 * Asking the memory, in real Chromium against the real server: the question box waits for a
 * replay, then a question about the first session shows the context the next LLM call would get
 * (the asked fact in it, token counts per part) and marks the history messages it brings back,
 * scrolled to the first retrieved one. Screenshots go to test-artifacts/.
 */
import type { Browser, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  launchChromium,
  type PageProblems,
  screenshot,
  watchProblems,
} from './__fixtures__/chromium.ts';
import { count, nextReplay, waitForTurnShown } from './__fixtures__/page-replay.ts';
import { startTestServer, type TestServer } from './__fixtures__/playground-server.ts';

const VIEWPORT = { width: 1440, height: 1000 };
/** Session 1 (Monday): BW-20418's declared value, EUR 11,400, in s1-m010 and s1-m011 only. */
const QUESTION = 'What was the declared value of shipment BW-20418?';
const FACT_IDS = ['s1-m010', 's1-m011'];

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('asking the memory after a replay', () => {
  let page: Page;
  let problems: PageProblems;

  beforeAll(async () => {
    page = await browser.newPage({ viewport: VIEWPORT });
    problems = watchProblems(page);
  });

  test('the question box is off until the replay is done', async () => {
    // Hold the first replay until the page has been checked.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const hold = async (route: Route) => {
      await held;
      await route.continue();
    };
    await page.route('**/api/replay', hold);
    const replay = nextReplay(page);
    await page.goto(`${server.url}/?store=sqlite&preset=summarizer`);
    await page.waitForSelector('#replay-status[data-state="running"]');
    expect(await page.isDisabled('#ask-input')).toBe(true);
    expect(await page.isDisabled('#ask-send')).toBe(true);
    expect(await page.isHidden('#ask-result')).toBe(true);
    release();
    const answer = await replay;
    await page.unroute('**/api/replay', hold);
    await waitForTurnShown(page, answer, answer.turns.length - 1);
    await page.waitForSelector('#ask-input:not([disabled])');
    expect(await page.isDisabled('#ask-send')).toBe(false);
  });

  test('a question about the first session shows its context and marks what it brings back', async () => {
    await page.fill('#ask-input', QUESTION);
    const asked = page.waitForResponse(
      (r) => new URL(r.url()).pathname === '/api/ask' && r.request().method() === 'POST',
    );
    await page.click('#ask-send');
    expect((await asked).status()).toBe(200);
    await page.waitForSelector('#ask-status[data-state="done"]');
    expect(await page.textContent('#ask-status')).toMatch(/\d+ retrieved/);

    // The context: the question last, the asked fact in it, token counts per part.
    const question = page.locator('#ask-context .context-item[data-kind="question"]');
    expect(await question.count()).toBe(1);
    expect(await question.locator('.text').textContent()).toBe(QUESTION);
    const knowledge = page.locator('#ask-context .context-item[data-kind="knowledge"]');
    await knowledge.locator('button.more').click();
    expect(await knowledge.locator('.text').textContent()).toMatch(/11,?400/);
    expect(await count(page, '#ask-context .context-item[data-kind="system"]')).toBeGreaterThan(0);
    expect(await count(page, '#ask-hits .kb-hit')).toBeGreaterThanOrEqual(1);
    expect(await page.textContent('#ask-breakdown')).toMatch(/question \d+ tok/);
    expect(await page.textContent('#ask-breakdown')).toMatch(/= [\d,]+ tokens sent/);

    // The history: retrieved messages marked (the fact's among them), the list scrolled to them.
    const retrieved = page.locator('#history .history-item[data-mark="retrieved"]');
    expect(await retrieved.count()).toBeGreaterThanOrEqual(1);
    const ids = await retrieved.evaluateAll((nodes) =>
      nodes.map((n) => (n as HTMLElement).dataset.id),
    );
    expect(FACT_IDS.some((id) => ids.includes(id))).toBe(true);
    expect(await retrieved.first().locator('.mark-retrieved').textContent()).toBe('retrieved');
    const visible = await page.evaluate(() => {
      const list = document.querySelector('#history')!.getBoundingClientRect();
      const first = document
        .querySelector('#history .history-item[data-mark="retrieved"]')!
        .getBoundingClientRect();
      return first.top >= list.top && first.bottom <= list.bottom + 1;
    });
    expect(visible).toBe(true);
    expect(await count(page, '#history .history-item[data-mark="window"]')).toBeGreaterThanOrEqual(
      1,
    );
    await screenshot(page, '11-ask-marked-history');

    // A hit's link shows the messages it quotes.
    await page.locator('#ask-hits .kb-hit .original-link').first().click();
    await page.waitForSelector('#history .history-item.highlight');
  });

  test('an empty or oversized question is refused with a message, and a new replay clears the answer', async () => {
    await page.fill('#ask-input', '   ');
    await page.click('#ask-send');
    await page.waitForSelector('#ask-status[data-state="error"]');
    expect(await page.textContent('#ask-status')).toContain('Type a question first');

    // The box stops at 4,000 characters; a longer text set from script reaches the server's check.
    expect(await page.getAttribute('#ask-input', 'maxlength')).toBe('4000');
    await page.evaluate(() => {
      (document.querySelector('#ask-input') as HTMLTextAreaElement).value = 'x'.repeat(4_001);
    });
    await page.click('#ask-send');
    await page.waitForFunction(() =>
      document.querySelector('#ask-status')?.textContent?.includes('"question"'),
    );
    expect(await page.textContent('#ask-status')).toContain('at most 4,000');
    expect(problems.failedRequests).toEqual(['POST /api/ask → 400']);
    problems.failedRequests.length = 0;

    const replay = nextReplay(page);
    await page.selectOption('#preset-select', 'combined');
    const answer = await replay;
    await waitForTurnShown(page, answer, answer.turns.length - 1);
    expect(await page.isHidden('#ask-result')).toBe(true);
    expect(await count(page, '#history .history-item[data-mark]')).toBe(0);
    await page.waitForSelector('#ask-input:not([disabled])');
  });

  test('no page errors, console errors or failed requests along the way', () => {
    expect(problems.errors).toEqual([]);
    expect(problems.failedRequests).toEqual([]);
    expect(server.logged).toEqual([]);
  });
});
