/**
 * The README's first command, as a user runs it: `bash scripts/demo.sh` sets up the workspace
 * (already set up here, so that part is quick) and ends with the playground serving on loopback,
 * its address printed. `--port 0` lets it pick a free port. Its store is SQLite by default, in the
 * data dir it prints.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, test, vi } from 'vitest';
import { type ServerProcess, startServerProcess } from './__fixtures__/server-process.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

let demo: ServerProcess | undefined;
let dataDir: string | undefined;
afterAll(async () => {
  await demo?.stop();
  if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
});

test('bash scripts/demo.sh ends with the playground serving and its address printed', async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'mem-demo-data-'));
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0', MEM_PLAYGROUND_DATA_DIR: dataDir };
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
  expect(((await config.json()) as { defaultStore: string }).defaultStore).toBe('sqlite');
  expect(demo.output()).toContain(`under ${join(dataDir, 'mem-playground-worker-*')}`);

  // A replay that names no store runs on a SQLite file in the data dir it printed.
  const replay = await fetch(`${demo.url}/api/replay`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ profile: {} }),
  });
  expect(replay.status).toBe(200);
  expect(((await replay.json()) as { store: string }).store).toBe('sqlite');
  const files = (await readdir(dataDir, { recursive: true })).filter((f) => f.endsWith('.sqlite'));
  expect(files).toHaveLength(1);

  // Stopping the process group (what Ctrl-C does) ends it, and its SQLite files go with it.
  await demo.stop();
  expect(demo.child.exitCode !== null || demo.child.signalCode !== null).toBe(true);
  // (pnpm may exit first; the server removes its files once it has closed.)
  const left = dataDir;
  await vi.waitFor(async () => expect(await readdir(left)).toEqual([]), { timeout: 10_000 });
}, 300_000);
