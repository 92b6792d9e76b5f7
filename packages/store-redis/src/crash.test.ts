import { runCrashTests } from '@mem/store-test-suite/processes';
import { redisProcessBackends } from './__fixtures__/process-backends.ts';

for (const [name, backend] of redisProcessBackends(`crash-${process.pid}`)) {
  runCrashTests(name, backend);
}
