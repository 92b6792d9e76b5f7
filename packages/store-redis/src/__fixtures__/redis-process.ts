import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A redis-server this test run started on 127.0.0.1, with its own data dir. */
export interface RedisProcess {
  port: number;
  dir: string;
  child: ChildProcess;
}

/** Fails with a clear message when the Debian redis-server / redis-cli are not installed. */
export function assertRedisInstalled(): void {
  for (const tool of ['redis-server', 'redis-cli']) {
    try {
      execFileSync(tool, ['--version'], { stdio: 'ignore' });
    } catch (error) {
      throw new Error(
        `[mem/redis tests] ${tool} is not installed; run scripts/bootstrap.sh (apt-get install redis-server redis-tools).`,
        { cause: error },
      );
    }
  }
}

/** A port that was free on 127.0.0.1 a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export function makeDir(label: string): string {
  return mkdtempSync(join(tmpdir(), `mem-redis-${label}-`));
}

/** Starts redis-server on `port` with data in `dir` and waits until it answers PING. */
export async function startRedis(
  port: number,
  dir: string,
  extra: readonly string[] = [],
): Promise<RedisProcess> {
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--protected-mode',
    'no',
    '--dir',
    dir,
    '--save',
    '',
    '--appendonly',
    'yes',
    '--appendfsync',
    'always',
    '--daemonize',
    'no',
    '--loglevel',
    'warning',
    ...extra,
  ];
  const child = spawn('redis-server', args, { stdio: 'ignore' });
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) break;
    if (cli(port, ['PING']) === 'PONG') return { port, dir, child };
    await sleep(50);
  }
  child.kill('SIGKILL');
  throw new Error(`[mem/redis tests] redis-server did not start on 127.0.0.1:${port}`);
}

/** Runs redis-cli against 127.0.0.1:port; returns trimmed stdout, or '' on failure. */
export function cli(port: number, args: readonly string[]): string {
  try {
    return execFileSync('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 10_000,
    }).trim();
  } catch {
    return '';
  }
}

/** SIGKILLs the server and waits for it to exit. */
export async function killRedis(redis: RedisProcess): Promise<void> {
  if (redis.child.exitCode !== null || redis.child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => redis.child.once('exit', () => resolve()));
  redis.child.kill('SIGKILL');
  await exited;
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
