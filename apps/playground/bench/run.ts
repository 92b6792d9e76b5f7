/**
 * How the playground page copes with a long replay, in real Chromium against the real server:
 * for each scenario the page is opened with `?conversation=generated&turns=N&preset=P` (the page
 * replays that on load and shows the last turn), and the bench measures
 *   (a) the replay on the server: its own timer (stats.totalMs) and the whole POST /api/replay,
 *   (b) from the replay's response arriving to the last turn being rendered (chart + lists),
 *   (c) the longest main-thread task in that window (PerformanceObserver 'longtask'),
 *   (d) responsiveness in that window: the longest gap between animation frames and the longest
 *       delay of a click (sent every 25 ms throughout) before the page handled it.
 * Prints a table and one JSON line. `pnpm bench` (optionally `-- --turns 1000,10000`).
 */
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import { launchChromium } from '../test/__fixtures__/chromium.ts';
import { nextReplay, waitForTurnShown } from '../test/__fixtures__/page-replay.ts';
import { startServerProcess } from '../test/__fixtures__/server-process.ts';
import { INSTALL_PROBE, type ProbeData, READ_PROBE } from './page-probe.ts';

interface Scenario {
  turns: number;
  preset: string;
}

interface Row {
  scenario: string;
  turns: number;
  replayMs: number;
  replayRequestMs: number;
  renderMs: number;
  chartMs: number;
  turnDetailMs: number;
  longestTaskMs: number;
  longTasks: number;
  maxFrameGapMs: number;
  maxInputDelayMs: number;
  clicks: number;
  historyItems: number;
  domNodes: number;
}

const { values } = parseArgs({
  // `pnpm bench -- --turns 1000` passes the `--` through.
  args: process.argv.slice(2).filter((arg) => arg !== '--'),
  options: {
    turns: { type: 'string', default: '1000,10000' },
    presets: { type: 'string', default: 'combined,neuralyzer' },
  },
});
const scenarios: Scenario[] = values.presets
  .split(',')
  .flatMap((preset) => values.turns.split(',').map((turns) => ({ preset, turns: Number(turns) })));
const TIMEOUT = 15 * 60_000;

// The server runs in its own process, as `mem-playground serve` would.
const here = fileURLToPath(new URL('..', import.meta.url));
const server = await startServerProcess(
  process.execPath,
  ['--conditions=@mem/source', '--import', 'tsx', 'test/__fixtures__/serve.ts'],
  { cwd: here, env: { PATH: process.env.PATH }, timeoutMs: 60_000 },
);
const browser = await launchChromium();
const rows: Row[] = [];
try {
  for (const scenario of scenarios) {
    process.stderr.write(`[bench] ${scenario.preset}, ${scenario.turns} turns…\n`);
    rows.push(await measure(scenario));
  }
} finally {
  await browser.close();
  await server.stop();
}
printTable(rows);
console.log(JSON.stringify({ bench: 'playground-page', chromium: browser.version(), rows }));

async function measure({ turns, preset }: Scenario): Promise<Row> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
  try {
    await page.addInitScript(INSTALL_PROBE);
    const answer = nextReplay(page, TIMEOUT);
    await page.goto(`${server.url}/?conversation=generated&turns=${turns}&preset=${preset}`);
    let rendered = false;
    const clicking = clickUntil(page, () => rendered);
    const replay = await answer;
    await waitForTurnShown(page, replay, replay.turns.length - 1, TIMEOUT);
    // The probe notes a panel's paint one frame after its last change: give it that frame.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 50))));
    rendered = true;
    await clicking;
    const probe = (await page.evaluate(READ_PROBE)) as ProbeData;
    const replayRequest = probe.resources.find((r) => r.path === '/api/replay');
    const turnRequest = probe.resources.findLast((r) => r.path.startsWith('/api/turn/'));
    if (replayRequest === undefined || turnRequest === undefined)
      throw new Error('missing resource timings');
    const from = replayRequest.responseEnd;
    const lastPaint = (panel?: string) =>
      Math.max(
        ...probe.paints
          .filter((p) => p.at >= from && (panel === undefined || p.panel === panel))
          .map((p) => p.at),
      );
    const to = lastPaint();
    const inWindow = <T extends { at: number }>(list: T[]) =>
      list.filter((x) => x.at >= from && x.at <= to);
    const tasks = probe.longTasks.filter((t) => t.start + t.duration >= from && t.start <= to);
    const frames = probe.frames.filter((t) => t >= from && t <= to);
    let maxFrameGap = 0;
    for (let i = 1; i < frames.length; i++)
      maxFrameGap = Math.max(maxFrameGap, frames[i]! - frames[i - 1]!);
    const inputs = inWindow(probe.inputs);
    return {
      scenario: preset,
      turns,
      replayMs: replay.stats.totalMs,
      replayRequestMs: replayRequest.responseEnd - replayRequest.start,
      renderMs: to - from,
      chartMs: lastPaint('chart') - from,
      turnDetailMs: turnRequest.responseEnd - turnRequest.start,
      longestTaskMs: Math.max(0, ...tasks.map((t) => t.duration)),
      longTasks: tasks.length,
      maxFrameGapMs: maxFrameGap,
      maxInputDelayMs: Math.max(0, ...inputs.map((i) => i.delay)),
      clicks: inputs.length,
      historyItems: await page.locator('#history .history-item').count(),
      domNodes: await page.evaluate(() => document.getElementsByTagName('*').length),
    };
  } finally {
    await page.close();
  }
}

/** Clicks the page's title every 25 ms (a no-op for the page) until `done()`. */
async function clickUntil(page: Page, done: () => boolean): Promise<void> {
  const title = await page.waitForSelector('header h1');
  const box = await title.boundingBox();
  if (box === null) throw new Error('the page title is not visible');
  while (!done()) {
    await page.mouse.click(box.x + 5, box.y + box.height / 2);
    await new Promise((r) => setTimeout(r, 25));
  }
}

function printTable(list: Row[]): void {
  const ms = (n: number) => `${Math.round(n).toLocaleString('en-US')} ms`;
  const columns: [string, (r: Row) => string][] = [
    ['preset', (r) => r.scenario],
    ['turns', (r) => r.turns.toLocaleString('en-US')],
    ['(a) replay (server timer)', (r) => ms(r.replayMs)],
    ['(a) POST /api/replay', (r) => ms(r.replayRequestMs)],
    ['(b) response → rendered', (r) => ms(r.renderMs)],
    ['  chart drawn', (r) => ms(r.chartMs)],
    ['  GET /api/turn', (r) => ms(r.turnDetailMs)],
    ['(c) longest task', (r) => `${ms(r.longestTaskMs)} (${r.longTasks} long)`],
    ['(d) max frame gap', (r) => ms(r.maxFrameGapMs)],
    ['(d) max click delay', (r) => `${ms(r.maxInputDelayMs)} (${r.clicks} clicks)`],
    ['history items in DOM', (r) => r.historyItems.toLocaleString('en-US')],
    ['DOM elements', (r) => r.domNodes.toLocaleString('en-US')],
  ];
  const header = ['', ...list.map((r) => `${r.scenario} ${r.turns.toLocaleString('en-US')}`)];
  const lines = columns.slice(2).map(([name, f]) => [name, ...list.map(f)]);
  const widths = header.map((_, i) => Math.max(...[header, ...lines].map((l) => l[i]!.length)));
  const fmt = (l: string[]) =>
    l.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(fmt(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const l of lines) console.log(fmt(l));
}
