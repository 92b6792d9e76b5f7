/** Entry point of `mem-playground` (run by bin/mem-playground.mjs through tsx). */
import { runCli } from './run-cli.ts';

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
});
