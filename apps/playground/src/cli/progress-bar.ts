/** A writable stream as the progress bar needs it (process.stderr, or a test's stream). */
export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

/**
 * A one-line progress bar redrawn in place on a terminal, at most every `intervalMs`; prints
 * nothing when the stream is not a terminal (logs and pipes stay clean).
 */
export function progressBar(stream: ProgressStream, label: string, intervalMs = 80) {
  let last = Number.NEGATIVE_INFINITY;
  let drawn = false;
  const enabled = stream.isTTY === true;
  return {
    update(done: number, total: number): void {
      const now = performance.now();
      if (!enabled || (done < total && now - last < intervalMs)) return;
      last = now;
      const share = total === 0 ? 1 : Math.min(1, done / total);
      const counts = `${done}/${total}`;
      const width = Math.max(
        10,
        Math.min(40, (stream.columns ?? 80) - label.length - counts.length - 12),
      );
      const full = Math.round(share * width);
      const bar = `${'█'.repeat(full)}${'░'.repeat(width - full)}`;
      stream.write(`\r${label} ${bar} ${String(Math.round(share * 100)).padStart(3)}% ${counts}`);
      drawn = true;
    },
    /** Clears the line so what follows starts at column 0. */
    done(): void {
      if (drawn) stream.write('\r\u001b[2K');
      drawn = false;
    },
  };
}
