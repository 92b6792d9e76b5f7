import { coldTurn } from './per-request.ts';

/**
 * One per-request turn in a fresh process (spawned by per-request.ts): argv = path, turn JSON,
 * reuseConnection (`true` or `false`).
 */
const [path, turn, reuseConnection] = process.argv.slice(2) as [string, string, string];
console.log(
  JSON.stringify(await coldTurn(path, JSON.parse(turn), true, reuseConnection === 'true')),
);
