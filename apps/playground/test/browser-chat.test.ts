/**
 * A live chat turn in real Chromium against the real server, whose chat model is a real local
 * HTTP server speaking OpenAI's wire format: the turn joins the thread (label, slider, chart),
 * and the stats bar shows the thread's stats as the server aggregated them with the new turn.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  type ProviderServer,
  startProviderServer,
} from '../../../packages/summarizers/src/__fixtures__/provider-server.ts';
import type { ChatResponse } from '../src/server/contract.ts';
import {
  launchChromium,
  type PageProblems,
  screenshot,
  watchProblems,
} from './__fixtures__/chromium.ts';
import {
  expectedStats,
  nextReplay,
  statsShown,
  waitForTurnShown,
} from './__fixtures__/page-replay.ts';
import { startTestServer, type TestServer } from './__fixtures__/playground-server.ts';

const VIEWPORT = { width: 1440, height: 1000 };
const REPLY = 'BW-20418 left Rotterdam on Tuesday.';

let provider: ProviderServer;
let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  provider = await startProviderServer();
  server = await startTestServer({
    OPENAI_API_KEY: 'test-key',
    OPENAI_BASE_URL: `${provider.url}/v1`,
    MEM_CHAT_MODEL: 'local-model',
  });
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await provider?.close();
});

describe('a chat turn after the replay', () => {
  let page: Page;
  let problems: PageProblems;

  beforeAll(async () => {
    page = await browser.newPage({ viewport: VIEWPORT });
    problems = watchProblems(page);
  });

  test("joins the thread, and the stats bar shows the server's stats with it", async () => {
    const initial = nextReplay(page);
    await page.goto(server.url);
    const replayed = await initial;
    await waitForTurnShown(page, replayed, replayed.turns.length - 1);
    expect(await statsShown(page)).toEqual(expectedStats(replayed.stats));

    provider.respondWith(() => REPLY);
    const answered = page
      .waitForResponse(
        (r) => new URL(r.url()).pathname === '/api/chat' && r.request().method() === 'POST',
      )
      .then((r) => r.json() as Promise<ChatResponse>);
    await page.fill('#chat-input', 'When did BW-20418 leave?');
    await page.click('#chat-send');
    const chat = await answered;
    expect(chat.reply).toBe(REPLY);
    expect(chat.stats.turns).toBe(replayed.stats.turns + 1);

    await waitForTurnShown(
      page,
      { ...replayed, turns: [...replayed.turns, chat.turn] },
      chat.turn.index,
    );
    await page.waitForSelector(`#chat-log .chat-assistant:has-text(${JSON.stringify(REPLY)})`);
    expect(await statsShown(page)).toEqual(expectedStats(chat.stats));
    expect(await page.inputValue('#turn-slider')).toBe(String(chat.turn.index));
    expect(await page.inputValue('#session-select')).toBe('live');
    await screenshot(page, '09-chat-turn');
    expect(problems.errors).toEqual([]);
    expect(problems.failedRequests).toEqual([]);
  });
});
