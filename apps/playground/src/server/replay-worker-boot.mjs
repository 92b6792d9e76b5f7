// Entry of the replay worker thread: loads TypeScript through tsx (the worker is started with
// --conditions=@mem/source, so workspace packages resolve to their source), then the worker.
import { register } from 'tsx/esm/api';

register();
await import('./replay-worker.ts');
