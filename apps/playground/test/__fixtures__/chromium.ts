/**
 * Real Chromium for the browser tests and the benchmark, driven by playwright-core (which never
 * downloads a browser): Debian's `chromium`, installed by scripts/bootstrap.sh.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.MEM_CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Screenshots of each milestone land here (gitignored). */
export const ARTIFACTS_DIR = fileURLToPath(new URL('../../test-artifacts/', import.meta.url));

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export interface PageProblems {
  /** Uncaught exceptions and console errors, except the browser's own "Failed to load resource". */
  errors: string[];
  /** Every API answer with a status >= 400, as `METHOD path → status`. */
  failedRequests: string[];
}

/** Starts recording what went wrong in the page from now on. */
export function watchProblems(page: Page): PageProblems {
  const problems: PageProblems = { errors: [], failedRequests: [] };
  page.on('pageerror', (error) =>
    problems.errors.push(`pageerror: ${error.stack ?? error.message}`),
  );
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    // Chromium logs every HTTP error answer like this; those are checked by status below.
    if (message.text().startsWith('Failed to load resource: the server responded with a status'))
      return;
    problems.errors.push(`console.error: ${message.text()}`);
  });
  page.on('requestfailed', (request) => {
    // A replay or turn request the page itself aborted (a newer one overtook it) is expected.
    const reason = request.failure()?.errorText ?? '';
    if (reason === 'net::ERR_ABORTED') return;
    problems.errors.push(`request failed: ${request.method()} ${request.url()} (${reason})`);
  });
  page.on('response', (response) => {
    if (response.status() < 400) return;
    const { pathname } = new URL(response.url());
    problems.failedRequests.push(
      `${response.request().method()} ${pathname} → ${response.status()}`,
    );
  });
  return problems;
}

export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(ARTIFACTS_DIR, { recursive: true });
  const path = join(ARTIFACTS_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
