import { createInterface } from 'node:readline';

const lines = createInterface({ input: process.stdin });
const seen = new Set<string>();
const waiting = new Map<string, () => void>();
lines.on('line', (line) => {
  seen.add(line.trim());
  waiting.get(line.trim())?.();
});

/** Resolves once the parent has written this line to stdin (before or after the call). */
export function onStdinLine(text: string): Promise<void> {
  if (seen.has(text)) return Promise.resolve();
  return new Promise((resolve) => waiting.set(text, resolve));
}

/** True once the parent has written this line to stdin. */
export const sawStdinLine = (text: string): boolean => seen.has(text);

/**
 * Prints one line on stdout and resolves once the OS has it. A worker awaits this before going
 * on, so a SIGKILL can only lose the line being printed: a line left in the process's own
 * buffer (the pipe full because the test is slow to read) would die with it, and the test would
 * count fewer acknowledgements than the worker made.
 */
export function say(line: string): Promise<void> {
  return new Promise((resolve, reject) => {
    process.stdout.write(`${line}\n`, (error) => (error ? reject(error) : resolve()));
  });
}
