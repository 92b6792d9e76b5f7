import { describe, expect, it } from 'vitest';
import { textStreamParts } from './__fixtures__/model-results.ts';
import type { StreamOutcome } from './collect-stream.ts';
import { lockedStream } from './locked-stream.ts';
import { acquireSessionLock } from './session-lock.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function source(parts: readonly unknown[], log: string[] = []): ReadableStream<unknown> {
  let i = 0;
  return new ReadableStream(
    {
      pull(controller) {
        if (i < parts.length) controller.enqueue(parts[i++]);
        else controller.close();
      },
      cancel() {
        log.push('model stream cancelled');
      },
    },
    { highWaterMark: 0 },
  );
}

async function setup(parts: readonly unknown[], options: { idleTimeoutMs?: number } = {}) {
  const lease = await acquireSessionLock({}, 's');
  const stores: StreamOutcome[] = [];
  const log: string[] = [];
  const abort = new AbortController();
  const stream = lockedStream(source(parts, log), {
    lease,
    signal: abort.signal,
    idleTimeoutMs: options.idleTimeoutMs ?? 10_000,
    store: async (outcome) => {
      stores.push(outcome);
    },
  });
  return { lease, stores, log, abort, stream };
}

const texts = (stores: readonly StreamOutcome[]) =>
  stores.map((s) => s.content.map((c) => c.text).join(''));

describe('lockedStream', () => {
  it('a completed stream stores its answer once, before it closes, then releases the lock', async () => {
    const { lease, stores, stream } = await setup(textStreamParts(['Hel', 'lo.']));
    const reader = stream.getReader();
    const seen: unknown[] = [];
    for (let r = await reader.read(); !r.done; r = await reader.read()) seen.push(r.value);

    expect(seen).toEqual(textStreamParts(['Hel', 'lo.']));
    expect(texts(stores)).toEqual(['Hello.']);
    expect(lease.released).toBe(true);
  });

  it('an error part anywhere means nothing of the answer is stored, even with a finish after it', async () => {
    const parts = textStreamParts(['partial']);
    const { lease, stores, stream } = await setup([
      ...parts.slice(0, 3),
      { type: 'error', error: 'overloaded' },
      ...parts.slice(3),
    ]);

    for await (const _ of stream as unknown as AsyncIterable<unknown>) {
      // read to the end
    }

    expect(stores).toEqual([]);
    expect(lease.released).toBe(true);
  });

  it('a cancelled stream stores nothing, releases the lock and cancels the model stream', async () => {
    const { lease, stores, log, stream } = await setup(textStreamParts(['a', 'b', 'c']));
    const reader = stream.getReader();
    await reader.read();

    await reader.cancel('user left');

    expect(lease.released).toBe(true);
    expect(log).toEqual(['model stream cancelled']);
    expect(stores).toEqual([]);
  });

  it('an abort releases the lock at once and stores nothing, even when the stream finishes', async () => {
    const { lease, stores, abort, stream } = await setup(textStreamParts(['a', 'b']));
    const reader = stream.getReader();
    await reader.read();

    abort.abort();
    expect(lease.released).toBe(true);
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      // the stream still ends normally
    }

    expect(stores).toEqual([]);
  });

  it('a reader that stops asking for parts releases the lock after idleTimeoutMs; its answer is not stored', async () => {
    const { lease, stores, stream } = await setup(textStreamParts(['a', 'b']), {
      idleTimeoutMs: 20,
    });
    const reader = stream.getReader();
    await reader.read();
    expect(lease.released).toBe(false);

    await sleep(60);
    expect(lease.released).toBe(true);
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      // the late reader still gets every part
    }

    expect(stores).toEqual([]);
  });

  it('an error storing the answer reaches the reader, and the lock is released', async () => {
    const lease = await acquireSessionLock({}, 's');
    const stream = lockedStream(source(textStreamParts(['a'])), {
      lease,
      signal: undefined,
      idleTimeoutMs: 10_000,
      store: async () => {
        throw new Error('disk full');
      },
    });

    const read = (async () => {
      for await (const _ of stream as unknown as AsyncIterable<unknown>) {
        // read to the end
      }
    })();

    await expect(read).rejects.toThrow('disk full');
    expect(lease.released).toBe(true);
  });
});
