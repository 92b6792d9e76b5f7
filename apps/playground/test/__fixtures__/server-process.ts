/**
 * Runs a command that starts a playground server, and resolves once it printed its address
 * (`http://127.0.0.1:<port>`). The command runs in its own process group, stopped as a whole.
 */
import { type ChildProcess, spawn } from 'node:child_process';

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Everything the process printed so far. */
  output(): string;
  stop(): Promise<void>;
}

const ADDRESS = /http:\/\/127\.0\.0\.1:(\d+)/;

export function startServerProcess(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<ServerProcess> {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, detached: true });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
      const killer = setTimeout(() => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // already gone
        }
      }, 5_000);
      await exited;
      clearTimeout(killer);
    }
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`no address printed within ${options.timeoutMs} ms; output:\n${output}`));
    }, options.timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = ADDRESS.exec(output);
      if (match !== null) {
        clearTimeout(timer);
        resolve({ url: match[0], child, output: () => output, stop });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(
        new Error(`exited (${signal ?? code}) before printing an address; output:\n${output}`),
      );
    });
  });
}
