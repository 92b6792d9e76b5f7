/** Runs the real `mem-playground` bin as a child process and checks its error output. */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'vitest';

const BIN = fileURLToPath(new URL('../../../bin/mem-playground.mjs', import.meta.url));

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the bin from `cwd` (a directory outside the workspace), with a time limit. */
export async function runBin(cwd: string, args: string[], timeoutMs = 90_000): Promise<CliRun> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [BIN, ...args], {
      cwd,
      env: { ...process.env, MEM_PLAYGROUND_DEBUG: '' },
      timeout: timeoutMs,
      maxBuffer: 16 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** Exit 2, one clear message, no stack trace. */
export function expectUsageError(run: CliRun, ...patterns: RegExp[]): void {
  expect(run.code).toBe(2);
  expect(run.stdout).toBe('');
  for (const p of patterns) expect(run.stderr).toMatch(p);
  expect(run.stderr).not.toMatch(/^\s+at /m);
}
