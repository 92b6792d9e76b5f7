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
