import { runMultiProcessTests } from '@mem/store-test-suite/processes';
import { afterAll } from 'vitest';
import { sqliteProcessBackend } from './__fixtures__/worker-store.ts';

const { backend, remove } = sqliteProcessBackend('multi');
afterAll(remove);

runMultiProcessTests('one SQLite file', backend);
