/**
 * Starts the playground server in its own process (for the benchmark, so the replay's CPU work
 * never delays the browser driver's I/O) and prints its address as the first stdout line.
 */
import { startPlaygroundServer } from '../../src/server/main.ts';

const server = await startPlaygroundServer({
  port: 0,
  host: '127.0.0.1',
  env: {},
  log: (line) => process.stderr.write(`${line}\n`),
});
process.stdout.write(`${server.url}\n`);
const stop = () => void server.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
