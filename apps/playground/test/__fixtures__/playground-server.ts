/**
 * The real playground server, in-process on a free loopback port, with no chat model configured
 * (unless `env` names one) and its SQLite replays written under a fresh temporary directory.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPlaygroundServer } from '../../src/server/main.ts';

export interface TestServer {
  url: string;
  /** The temporary directory the server's SQLite files are created in. */
  dataDir: string;
  /** SQLite files currently under `dataDir`. */
  sqliteFiles(): Promise<string[]>;
  /** Server errors it reported (should stay empty). */
  logged: string[];
  close(): Promise<void>;
}

/** `env`: where the server reads its chat settings (default: none, so the chat is off). */
export async function startTestServer(env: NodeJS.ProcessEnv = {}): Promise<TestServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'mem-playground-test-'));
  const logged: string[] = [];
  const server = await startPlaygroundServer({
    port: 0,
    host: '127.0.0.1',
    env,
    dataDir,
    log: (line) => logged.push(line),
  });
  return {
    url: server.url,
    dataDir,
    logged,
    async sqliteFiles() {
      const entries = await readdir(dataDir, { recursive: true });
      return entries.filter((entry) => entry.endsWith('.sqlite'));
    },
    async close() {
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
