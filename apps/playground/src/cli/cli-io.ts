import type { ProgressStream } from './progress-bar.ts';

/** Where the CLI writes: the process's streams, or a test's. */
export interface CliIo {
  stdout: { write(text: string): unknown };
  stderr: ProgressStream;
}
