import { coldTurn } from './per-request.ts';

/**
 * One per-request turn in a fresh process (spawned by per-request.ts): argv = path, turn JSON,
 * checkpointOnClose (`true` or `false`).
 */
const [path, turn, checkpointOnClose] = process.argv.slice(2) as [string, string, string];
console.log(
  JSON.stringify(await coldTurn(path, JSON.parse(turn), true, checkpointOnClose === 'true')),
);
