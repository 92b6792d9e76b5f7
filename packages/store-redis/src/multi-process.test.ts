import { runMultiProcessTests } from '@mem/store-test-suite/processes';
import { redisProcessBackends } from './__fixtures__/process-backends.ts';

for (const [name, backend] of redisProcessBackends(`multi-${process.pid}`)) {
  runMultiProcessTests(name, backend);
}
