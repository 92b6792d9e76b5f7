/**
 * The playground page in real Chromium against the real server (in-process, SQLite files in a
 * fresh temporary directory, no chat model): presets, live validation, erasure, stepping, chat
 * help, and a 10,000-turn replay that keeps the DOM bounded. Screenshots go to test-artifacts/.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  launchChromium,
  type PageProblems,
  screenshot,
  watchProblems,
} from './__fixtures__/chromium.ts';
import {
  count,
  expectedStats,
  nextReplay,
  type ReplayAnswer,
  statsShown,
  waitForTurnShown,
} from './__fixtures__/page-replay.ts';
import { startTestServer, type TestServer } from './__fixtures__/playground-server.ts';

const VIEWPORT = { width: 1440, height: 1000 };

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

describe('the bundled conversation', () => {
  let page: Page;
  let problems: PageProblems;
  let combined: ReplayAnswer;

  beforeAll(async () => {
    page = await browser.newPage({ viewport: VIEWPORT });
    problems = watchProblems(page);
  });

  test('loads, then replays the combined preset on SQLite (the default store) down to the last turn', async () => {
    const initial = nextReplay(page);
    await page.goto(`${server.url}/`);
    const first = await initial;
    await waitForTurnShown(page, first, first.turns.length - 1);
    expect(await page.inputValue('#store-select')).toBe('sqlite');
    // The replay's store is a real SQLite file under the server's temporary directory.
    expect(await server.sqliteFiles()).toHaveLength(1);
    await screenshot(page, '01-loaded');

    const replay = nextReplay(page);
    await page.selectOption('#preset-select', 'combined');
    combined = await replay;
    const last = combined.turns.length - 1;
    await waitForTurnShown(page, combined, last);

    const profile = JSON.parse(await page.inputValue('#profile-editor'));
    expect(profile.profile.long_term_memory_strategy[0].long_term_memory_id).toBe('summarizer');
    const status = await page.textContent('#replay-status');
    expect(status).toContain('done');
    expect(status).toContain(combined.turns.length.toLocaleString('en-US'));
    expect(await page.inputValue('#turn-slider')).toBe(String(last));

    expect(combined.stats.compactions).toBeGreaterThan(0);
    expect(await count(page, '#chart .line-history')).toBe(1);
    expect(await count(page, '#chart .line-prompt')).toBe(1);
    expect(await count(page, '#chart .marker-compaction')).toBeGreaterThanOrEqual(1);
    expect(await count(page, '#summaries .summary-item')).toBeGreaterThanOrEqual(1);
    const ratio = await page.locator('#summaries .summary-item .ratio').first().textContent();
    expect(Number(ratio)).toBeGreaterThan(0);
    expect(await count(page, '#summaries .summary-item .original-link')).toBeGreaterThanOrEqual(1);
    expect(
      await count(page, '#history .history-item[data-state="archived"]'),
    ).toBeGreaterThanOrEqual(1);
    expect(await count(page, '#history .history-item[data-state="active"]')).toBeGreaterThanOrEqual(
      1,
    );
    expect(await count(page, '#context .context-item[data-kind="summary"]')).toBeGreaterThanOrEqual(
      1,
    );
    expect(await count(page, '#context .context-item[data-kind="window"]')).toBeGreaterThanOrEqual(
      1,
    );
    // The prompt's size as the server counted it, the same number the chart plots.
    expect(await page.textContent('#context-tokens')).toBe(
      `${combined.turns[last]!.promptTokens.toLocaleString('en-US')} tokens`,
    );
    expect(await statsShown(page)).toEqual(expectedStats(combined.stats));
    await screenshot(page, '02-combined-last-turn');
  });

  test('an invalid profile is flagged live, by path, and nothing is replayed', async () => {
    const valid = await page.inputValue('#profile-editor');
    let replays = 0;
    const countReplays = (request: { url(): string }) => {
      if (request.url().endsWith('/api/replay')) replays++;
    };
    page.on('request', countReplays);

    await page.fill(
      '#profile-editor',
      valid.replace(/"interaction_keep": \d+/, '"interaction_keep": -3'),
    );
    await page.waitForSelector('#profile-errors li.profile-error[data-path*="interaction_keep"]');
    expect(await page.getAttribute('#profile-editor', 'aria-invalid')).toBe('true');
    await screenshot(page, '03-invalid-profile');

    await page.fill(
      '#profile-editor',
      valid.replace(/"interaction_keep": \d+/, '"interaction_keep": "two"'),
    );
    await page.waitForFunction(() =>
      document
        .querySelector('#profile-errors li.profile-error')
        ?.textContent?.match(/interaction_keep/),
    );
    await page.fill('#profile-editor', valid.slice(0, 20));
    await page.waitForFunction(
      () =>
        document.querySelector(
          '#profile-errors li.profile-error[data-path*="interaction_keep"]',
        ) === null,
    );
    expect(await count(page, '#profile-errors li.profile-error')).toBeGreaterThanOrEqual(1);
    expect(await page.getAttribute('#profile-editor', 'aria-invalid')).toBe('true');

    // Back to the text that was last replayed: valid again, and nothing new to replay.
    await page.fill('#profile-editor', valid);
    await page.waitForSelector('#profile-editor[aria-invalid="false"]');
    expect(await count(page, '#profile-errors li.profile-error')).toBe(0);
    page.off('request', countReplays);
    expect(replays).toBe(0);
    expect(await page.getAttribute('#replay-status', 'data-state')).toBe('done');
  });

  test('the neuralyzer preset erases history, marked on the chart', async () => {
    const replay = nextReplay(page);
    await page.selectOption('#preset-select', 'neuralyzer');
    const neuralyzer = await replay;
    await waitForTurnShown(page, neuralyzer, neuralyzer.turns.length - 1);
    expect(neuralyzer.stats.erasures).toBeGreaterThan(0);
    expect(await count(page, '#chart .marker-erasure')).toBeGreaterThanOrEqual(1);
    expect(await count(page, '#chart .marker-compaction')).toBe(0);
    expect(await count(page, '#history .history-item[data-state="erased"]')).toBeGreaterThanOrEqual(
      1,
    );
    expect(await count(page, '#history .history-item[data-state="archived"]')).toBe(0);
    expect(await count(page, '#summaries .summary-item')).toBe(0);
    await screenshot(page, '04-neuralyzer-erased');

    // Stepping: to the first turn of the first session, then one turn on.
    await page.selectOption('#session-select', { index: 0 });
    await waitForTurnShown(page, neuralyzer, 0);
    await page.click('#replay-step');
    await waitForTurnShown(page, neuralyzer, 1);
    expect(await page.inputValue('#turn-slider')).toBe('1');
    expect(await page.textContent('#turn-label')).toMatch(/^Turn 2 \//);
    await screenshot(page, '05-stepped');
  });

  test('without a configured model the chat box explains how to enable it', async () => {
    const help = page.locator('#chat-help');
    expect(await help.isVisible()).toBe(true);
    const text = await help.textContent();
    expect(text).toContain('OPENAI_API_KEY');
    expect(text).toContain('ANTHROPIC_API_KEY');
    expect(await page.isDisabled('#chat-input')).toBe(true);
    expect(await page.isDisabled('#chat-send')).toBe(true);
    await screenshot(page, '06-chat-help');
  });

  test('no page errors, console errors or failed requests along the way', () => {
    expect(problems.errors).toEqual([]);
    expect(problems.failedRequests).toEqual([]);
    expect(server.logged).toEqual([]);
  });
});

describe('a generated 10,000-turn conversation', () => {
  test('renders the last turn with a bounded DOM', async () => {
    const page = await browser.newPage({ viewport: VIEWPORT });
    const problems = watchProblems(page);
    const replay = nextReplay(page, 300_000);
    await page.goto(`${server.url}/?conversation=generated&turns=10000`);
    const answer = await replay;
    expect(answer.turns).toHaveLength(10_000);
    await waitForTurnShown(page, answer, 9_999, 300_000);
    expect(await page.textContent('#replay-status')).toContain('10,000');

    const historyItems = await count(page, '#history .history-item');
    expect(historyItems).toBeGreaterThan(0);
    expect(historyItems).toBeLessThan(5_000);
    const nodes = await page.evaluate(() => document.getElementsByTagName('*').length);
    expect(nodes).toBeLessThan(20_000);
    await screenshot(page, '07-generated-10000');

    expect(problems.errors).toEqual([]);
    expect(problems.failedRequests).toEqual([]);
    await page.close();
  }, 300_000);
});
