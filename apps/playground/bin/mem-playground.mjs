#!/usr/bin/env node
// Runs src/cli/main.ts with tsx, workspace packages resolved to their TypeScript source
// (the `@mem/source` export condition), forwarding the arguments, stdio and exit code.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const main = fileURLToPath(new URL('../src/cli/main.ts', import.meta.url));
// Resolved from here, so the command works from any working directory.
const tsx = import.meta.resolve('tsx');
const child = spawn(
  process.execPath,
  ['--conditions=@mem/source', '--import', tsx, main, ...process.argv.slice(2)],
  { stdio: 'inherit' },
);
const forward = (signal) => child.kill(signal);
process.on('SIGINT', forward);
process.on('SIGTERM', forward);
child.on('exit', (code, signal) => {
  process.off('SIGINT', forward);
  process.off('SIGTERM', forward);
  if (signal !== null) process.kill(process.pid, signal);
  else process.exit(code ?? 1);
});
