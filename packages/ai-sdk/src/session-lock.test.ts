import { describe, expect, it } from 'vitest';
import { acquireSessionLock, sessionLockLoad } from './session-lock.ts';

const settled = async <T>(p: Promise<T>) => {
  let done = false;
  p.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  await new Promise((resolve) => setTimeout(resolve, 5));
  return done;
};

describe('acquireSessionLock', () => {
  it('serves overlapping callers on one session one at a time, first come first served', async () => {
    const engine = {};
    const order: number[] = [];
    const run = async (n: number) => {
      const lease = await acquireSessionLock(engine, 's');
      order.push(n);
      await new Promise((resolve) => setTimeout(resolve, 3 - (n % 3)));
      order.push(-n);
      lease.release();
    };

    await Promise.all([1, 2, 3, 4, 5].map(run));

    expect(order).toEqual([1, -1, 2, -2, 3, -3, 4, -4, 5, -5]);
    expect(sessionLockLoad(engine, 's')).toBe(0);
  });

  it('different sessions and different engines do not wait for each other', async () => {
    const engine = {};
    const held = await acquireSessionLock(engine, 'a');

    expect(await settled(acquireSessionLock(engine, 'b'))).toBe(true);
    expect(await settled(acquireSessionLock({}, 'a'))).toBe(true);
    expect(await settled(acquireSessionLock(engine, 'a'))).toBe(false);
    held.release();
  });

  it('a second release does not free the lock of the next holder', async () => {
    const engine = {};
    const first = await acquireSessionLock(engine, 's');
    const second = acquireSessionLock(engine, 's');
    first.release();
    await second;
    first.release();

    expect(first.released).toBe(true);
    expect(await settled(acquireSessionLock(engine, 's'))).toBe(false);
  });

  it('a caller aborted while waiting leaves the queue; the others keep their turn', async () => {
    const engine = {};
    const first = await acquireSessionLock(engine, 's');
    const abort = new AbortController();
    const aborted = acquireSessionLock(engine, 's', abort.signal);
    const third = acquireSessionLock(engine, 's');

    abort.abort(new Error('user left'));

    await expect(aborted).rejects.toThrow('user left');
    expect(sessionLockLoad(engine, 's')).toBe(2);
    first.release();
    (await third).release();
    expect(sessionLockLoad(engine, 's')).toBe(0);
    await expect(acquireSessionLock(engine, 's', abort.signal)).rejects.toThrow('user left');
  });
});
