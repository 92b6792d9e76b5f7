/**
 * The README's first command, as a user runs it: `bash scripts/demo.sh` sets up the workspace
 * (already set up here, so that part is quick) and ends with the playground serving on loopback,
 * its address printed. `--port 0` lets it pick a free port.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, expect, test } from 'vitest';
import { type ServerProcess, startServerProcess } from './__fixtures__/server-process.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

let demo: ServerProcess | undefined;
afterAll(() => demo?.stop());

test('bash scripts/demo.sh ends with the playground serving and its address printed', async () => {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0' };
  for (const key of ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'ANTHROPIC_API_KEY', 'MEM_REDIS_URL']) {
    delete env[key];
  }
  demo = await startServerProcess('bash', ['scripts/demo.sh', '--port', '0'], {
    cwd: ROOT,
    env,
    timeoutMs: 240_000,
  });
  expect(demo.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  expect(demo.url).not.toMatch(/:0$/);

  const page = await fetch(demo.url);
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(html).toContain('mem playground');
  expect(html).toContain('id="preset-select"');
  const config = await fetch(`${demo.url}/api/config`);
  expect(config.status).toBe(200);

  // Stopping the process group (what Ctrl-C does) ends it.
  await demo.stop();
  expect(demo.child.exitCode !== null || demo.child.signalCode !== null).toBe(true);
}, 300_000);
