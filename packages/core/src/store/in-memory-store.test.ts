import { describe, expect, it } from 'vitest';
import type { MemConfigError } from '../errors/errors.ts';
import { MemError } from '../errors/mem-error.ts';
import type { CountedMessage } from '../model/message.ts';
import { IDEMPOTENCY_WINDOW } from './in-memory-session.ts';
import { createInMemoryBackend, createInMemoryStore } from './in-memory-store.ts';
import type { SessionSnapshot, Store } from './store-spec.ts';

let n = 0;
function message(text = `message ${n + 1}`, extra: Partial<CountedMessage> = {}): CountedMessage {
  n += 1;
  return { id: `m${n}`, role: 'user', content: text, createdAt: n, tokenCount: 2, ...extra };
}

async function rejection(promise: Promise<unknown>): Promise<MemError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(MemError.isInstance(error), String(error)).toBe(true);
  return error as MemError;
}

function summaryInput(store: Store, sessionId: string, throughSeq: number, id: string) {
  return store.read(sessionId).then(({ epoch, messages }) => {
    const replaced = messages.filter((m) => m.seq <= throughSeq);
    return {
      expectedEpoch: epoch,
      throughSeq,
      summary: {
        id,
        role: 'system' as const,
        content: 's',
        createdAt: 0,
        tokenCount: 1,
        metadata: { kind: 'summary' },
      },
      record: {
        id,
        originalMessageIds: replaced.map((m) => m.id),
        fromSeq: replaced[0]!.seq,
        throughSeq,
        originalTokenCount: 2 * replaced.length,
        tokenCount: 1,
        compressionRatio: 2 * replaced.length,
        timeRange: { start: 0, end: 0 },
        createdAt: 0,
      },
    };
  });
}

describe('createInMemoryStore', () => {
  it('defaults to the "default" namespace, a private backend and no durability', async () => {
    const store = createInMemoryStore();
    expect(store.namespace).toBe('default');
    expect(store.specificationVersion).toBe('mem.store.v3');
    expect(store.capabilities).toStrictEqual({ ttl: true, multiProcess: false, durable: false });
    await store.append('s', [message()], { idempotencyKey: 'k' });
    expect(await createInMemoryStore().info('s')).toBeNull();
  });

  it('lists every bad option in one MemConfigError', () => {
    let error: unknown;
    try {
      createInMemoryStore({
        namespace: 'has space',
        ttlMs: -1,
        backend: {} as never,
        now: 'soon' as never,
      });
    } catch (e) {
      error = e;
    }
    expect(MemError.hasCode(error, 'MEM_CONFIG')).toBe(true);
    expect((error as MemConfigError).issues.map((i) => i.path)).toStrictEqual([
      'namespace',
      'ttlMs',
      'backend',
      'now',
    ]);
  });

  it('shares a backend between stores; namespaces stay apart; close is per store', async () => {
    const backend = createInMemoryBackend();
    const [a1, a2, b] = [
      createInMemoryStore({ backend, namespace: 'a' }),
      createInMemoryStore({ backend, namespace: 'a' }),
      createInMemoryStore({ backend, namespace: 'b' }),
    ];
    await a1.append('s', [message()], { idempotencyKey: 'k' });
    expect((await a2.read('s')).messages).toHaveLength(1);
    expect(await b.info('s')).toBeNull();
    await a1.close();
    expect((await a2.info('s'))?.messageCount).toBe(1);
    expect((await rejection(a1.info('s'))).code).toBe('MEM_STORE');
  });

  it('stamps createdAt and updatedAt with the injected clock', async () => {
    let clock = 1_000;
    const store = createInMemoryStore({ now: () => clock });
    await store.append('s', [message()], { idempotencyKey: 'a' });
    clock = 2_500;
    await store.append('s', [message()], { idempotencyKey: 'b' });
    expect(await store.info('s')).toMatchObject({ createdAt: 1_000, updatedAt: 2_500 });
  });

  it(`remembers exactly the last ${IDEMPOTENCY_WINDOW} keys, so memory stays bounded`, async () => {
    const store = createInMemoryStore();
    for (let i = 0; i <= IDEMPOTENCY_WINDOW; i++) {
      await store.append('s', [message()], { idempotencyKey: `k${i}` });
    }
    expect((await store.append('s', [message()], { idempotencyKey: 'k1' })).duplicate).toBe(true);
    const forgotten = await store.append('s', [message()], { idempotencyKey: 'k0' });
    expect(forgotten.duplicate).toBe(false);
    expect((await store.export('s'))?.idempotencyKeys).toHaveLength(IDEMPOTENCY_WINDOW);
  });

  it('keeps an own __proto__ metadata key as data', async () => {
    const store = createInMemoryStore();
    const metadata = JSON.parse('{"__proto__": {"admin": true}, "ok": 1}') as Record<
      string,
      unknown
    >;
    await store.append('s', [message('x', { metadata })], { idempotencyKey: 'k' });
    const [stored] = (await store.read('s')).messages;
    expect(Object.keys(stored!.metadata!)).toStrictEqual(['__proto__', 'ok']);
    expect((stored!.metadata as { admin?: unknown }).admin).toBeUndefined();
  });

  it('names the bad path and lists every problem in a validation error', async () => {
    const store = createInMemoryStore();
    const bad = { ...message(), tokenCount: -1, role: 'bot' } as unknown as CountedMessage;
    const error = await rejection(store.append('s', [message(), bad], { idempotencyKey: 'k' }));
    expect(error.code).toBe('MEM_VALIDATION');
    expect((error as { field?: string }).field).toBe('messages[1].role');
    expect(error.message).toContain('messages[1].tokenCount');
    expect(error.message.startsWith('[mem/store]')).toBe(true);
  });

  it('reports epoch conflicts as epochs', async () => {
    const store = createInMemoryStore();
    await store.append('s', [message(), message(), message()], { idempotencyKey: 'k' });
    const plan = await summaryInput(store, 's', 2, 'sum-1');
    await store.erase('s', { expectedEpoch: 0, throughSeq: 1 });
    const error = await rejection(store.compact('s', plan));
    expect(error.code).toBe('MEM_STORE_CONFLICT');
    expect(error.message).toContain('is at epoch 1, expected 0');
  });

  it('expires sessions and cleared counters for every store of the namespace', async () => {
    let clock = 0;
    const backend = createInMemoryBackend();
    const withTtl = createInMemoryStore({ backend, ttlMs: 100, now: () => clock });
    const withoutTtl = createInMemoryStore({ backend, now: () => clock });
    await withTtl.append('s', [message(), message()], { idempotencyKey: 'k' });
    await withTtl.clear('s');
    clock = 50;
    expect((await withTtl.append('s', [message()], { idempotencyKey: 'k2' })).firstSeq).toBe(3);
    await withTtl.clear('s');
    clock = 160;
    expect((await withoutTtl.read('s')).version).toBe(0);
    expect((await withoutTtl.append('s', [message()], { idempotencyKey: 'k3' })).firstSeq).toBe(1);
    clock = 1_000;
    expect(await withTtl.info('s')).not.toBeNull();
  });

  it('sweeps expired sessions out of the backend', async () => {
    let clock = 0;
    const backend = createInMemoryBackend();
    const store = createInMemoryStore({ backend, ttlMs: 10, now: () => clock });
    for (let i = 0; i < 5; i++) await store.append(`s${i}`, [message()], { idempotencyKey: 'k' });
    clock = 100;
    await store.append('late', [message()], { idempotencyKey: 'k' });
    // A clock still at 0 would see the old sessions as alive, had they not been swept.
    const stillAtZero = createInMemoryStore({ backend, now: () => 0 });
    expect((await stillAtZero.list()).sessionIds).toStrictEqual(['late']);
  });

  it('keeps only the newest keys of an imported snapshot', async () => {
    const store = createInMemoryStore();
    await store.append('s', [message()], { idempotencyKey: 'k' });
    const snapshot = (await store.export('s'))!;
    const keys = Array.from({ length: IDEMPOTENCY_WINDOW + 5 }, (_, i) => ({
      key: `key-${i}`,
      version: 1,
      epoch: 0,
      firstSeq: 1,
      lastSeq: 1,
    }));
    const big: SessionSnapshot = { ...snapshot, idempotencyKeys: keys };
    await store.import(big);
    const exported = (await store.export('s'))!;
    expect(exported.idempotencyKeys).toStrictEqual(keys.slice(5));
  });

  it('validates the session id of an import before the snapshot', async () => {
    const store = createInMemoryStore();
    const error = await rejection(store.import({ sessionId: '' } as SessionSnapshot));
    expect((error as { field?: string }).field).toBe('sessionId');
  });

  it('pages list cursors through unicode ids in code-unit order', async () => {
    const store = createInMemoryStore();
    const ids = ['b', 'a', '😀', 'é', 'Z', '{x}'];
    for (const id of ids) await store.append(id, [message()], { idempotencyKey: 'k' });
    const first = await store.list({ limit: 4 });
    expect(first.sessionIds).toStrictEqual(['Z', 'a', 'b', '{x}']);
    const second = await store.list({ limit: 4, cursor: first.cursor! });
    expect(second).toStrictEqual({ sessionIds: ['é', '😀'] });
  });
});
