import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:net';

/**
 * A private redis-server for the bench on a free 127.0.0.1 port, no persistence (`--save ''`,
 * `--appendonly no`: the bench measures memory and search, not durability), stopped at the end
 * (as packages/store-redis/bench/run.ts does with its fixture).
 */
export interface RedisServer {
  url: string;
  port: number;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
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

function ping(port: number): boolean {
  try {
    const out = execFileSync('redis-cli', ['-h', '127.0.0.1', '-p', String(port), 'PING'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 5_000,
    });
    return out.trim() === 'PONG';
  } catch {
    return false;
  }
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGKILL');
  await exited;
}

/** Starts redis-server in `dir` and waits (at most 10 s) until it answers PING. */
export async function startRedisServer(dir: string): Promise<RedisServer> {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
  } catch (error) {
    throw new Error(
      '[kb-scale-bench] redis-server is not installed; run scripts/bootstrap.sh (apt-get install redis-server redis-tools).',
      { cause: error },
    );
  }
  const port = await freePort();
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', ''];
  args.push('--appendonly', 'no', '--daemonize', 'no', '--loglevel', 'warning');
  const child = spawn('redis-server', args, { stdio: 'ignore' });
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) break;
    if (ping(port)) return { url: `redis://127.0.0.1:${port}`, port, stop: () => stopChild(child) };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await stopChild(child);
  throw new Error(`[kb-scale-bench] redis-server did not start on 127.0.0.1:${port}`);
}
