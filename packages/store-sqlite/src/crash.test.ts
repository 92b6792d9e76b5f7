import { runCrashTests } from '@mem/store-test-suite/processes';
import { afterAll } from 'vitest';
import { sqliteProcessBackend } from './__fixtures__/worker-store.ts';

const { backend, remove } = sqliteProcessBackend('crash');
afterAll(remove);

runCrashTests('one SQLite file', backend);
