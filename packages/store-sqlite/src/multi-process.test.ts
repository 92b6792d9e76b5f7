import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runMultiProcessTests } from '@mem/store-test-suite/processes';
import { afterAll } from 'vitest';
import { openWorkerStore } from './__fixtures__/worker-store.ts';

const dir = mkdtempSync(join(tmpdir(), 'mem-sqlite-multi-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

runMultiProcessTests('one SQLite file', {
  tag: 'sqlite',
  workerStore: new URL('./__fixtures__/worker-store.ts', import.meta.url),
  openStore: openWorkerStore,
  place: () => join(dir, 'shared.db'),
});
