/**
 * User memory in real Chromium against the real server: choose a user and replay, and the
 * facts panel fills with what the memory learnt about the user; a question (asked in a new
 * session of the user) shows its knowledge hits labelled by the session they came from; "Forget
 * this user" reports what was removed and empties the panel, and questions wait for a replay.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ForgetUserResponse } from '../src/server/contract.ts';
import {
  launchChromium,
  type PageProblems,
  screenshot,
  watchProblems,
} from './__fixtures__/chromium.ts';
import { count, nextReplay, waitForTurnShown } from './__fixtures__/page-replay.ts';
import { startTestServer, type TestServer } from './__fixtures__/playground-server.ts';

const VIEWPORT = { width: 1440, height: 1000 };
const USER = 'maren';
/** Session 1 (Monday 9 March 2026): BW-20418's declared value. */
const QUESTION = 'What was the declared value of shipment BW-20418?';

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

describe('the memory of one user', () => {
  let page: Page;
  let problems: PageProblems;

  beforeAll(async () => {
    page = await browser.newPage({ viewport: VIEWPORT });
    problems = watchProblems(page);
    const initial = nextReplay(page);
    await page.goto(`${server.url}/?store=sqlite&preset=summarizer`);
    const answer = await initial;
    await waitForTurnShown(page, answer, answer.turns.length - 1);
  });

  test('choose a user, replay, see the facts panel filled, press forget, see it empty', async () => {
    // Without a user the panel says how to get one, and there is nothing to forget.
    expect(await page.textContent('#user-status')).toMatch(/No user/);
    expect(await page.isDisabled('#user-forget')).toBe(true);

    const replay = nextReplay(page);
    await page.fill('#user-input', USER);
    await page.press('#user-input', 'Enter');
    const answer = await replay;
    expect(answer.user?.id).toBe(USER);
    expect(answer.user?.sessions).toHaveLength(4);
    await waitForTurnShown(page, answer, answer.turns.length - 1);
    await page.waitForSelector('#user-status[data-state="done"]');
    expect(await page.textContent('#user-status')).toMatch(/User maren: 4 sessions stored/);
    const facts = page.locator('#user-facts .user-fact');
    expect(await facts.count()).toBeGreaterThan(0);
    for (const source of await facts.locator('.fact-source').allTextContents()) {
      expect(source).toMatch(/^learnt in session [1-4], 2026-03-\d\d$/);
    }
    expect(await page.textContent('#user-facts-count')).toBe(`${await facts.count()} facts`);
    expect(await page.isDisabled('#user-forget')).toBe(false);

    // A question runs in a new session of the user: its hits say which session they came from.
    await page.waitForSelector('#ask-input:not([disabled])');
    await page.fill('#ask-input', QUESTION);
    await page.click('#ask-send');
    await page.waitForSelector('#ask-status[data-state="done"]');
    const labels = await page.locator('#ask-hits .kb-hit .hit-session').allTextContents();
    expect(labels.length).toBeGreaterThan(0);
    for (const label of labels) expect(label).toMatch(/^from session [1-4], 2026-03-\d\d$/);
    expect(labels).toContain('from session 1, 2026-03-09');
    expect(await count(page, '#ask-hits .kb-hit .hit-session[data-current="true"]')).toBe(0);
    await screenshot(page, '12-user-memory');

    // Forget: the page shows what was removed, the facts are gone, questions wait for a replay.
    const forgot = page.waitForResponse(
      (r) => new URL(r.url()).pathname === '/api/user/forget' && r.status() === 200,
    );
    await page.click('#user-forget');
    const removed = ((await (await forgot).json()) as ForgetUserResponse).removed;
    expect(removed.sessions).toBe(4);
    await page.waitForFunction(() =>
      document.querySelector('#user-status')?.textContent?.startsWith('Forgot maren'),
    );
    expect(await page.textContent('#user-status')).toBe(
      `Forgot maren: removed 4 sessions, ${removed.messages.toLocaleString('en-US')} messages, ${removed.facts} facts, ${removed.chunks} knowledge chunks. Replay to build the memory again.`,
    );
    expect(removed.facts).toBeGreaterThan(0);
    expect(await count(page, '#user-facts .user-fact')).toBe(0);
    expect(await page.textContent('#user-facts-count')).toBe('0 facts');
    expect(await page.isDisabled('#user-forget')).toBe(true);
    expect(await page.isDisabled('#ask-input')).toBe(true);
    expect(await page.textContent('#ask-status')).toMatch(/forgotten: replay/);
    await screenshot(page, '13-user-forgotten');
  });

  test('no page errors, console errors or failed requests along the way', () => {
    expect(problems.errors).toEqual([]);
    expect(problems.failedRequests).toEqual([]);
    expect(server.logged).toEqual([]);
  });
});
