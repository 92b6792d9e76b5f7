import { createSqliteStore } from '../sqlite-store.ts';

/*
 * One OS process of the multi-process test: appends `turns` turns of 2 messages to one session
 * of the database file at argv[2], as writer argv[3], then exits.
 */
const [path, writer, turns] = process.argv.slice(2);
const store = createSqliteStore({ path: path as string, busyTimeoutMs: 30_000 });
for (let i = 0; i < Number(turns); i++) {
  const batch = [0, 1].map((j) => ({
    id: `${writer}-${i}-${j}`,
    role: j === 0 ? ('user' as const) : ('assistant' as const),
    content: `${writer} ${i} ${j}`,
    createdAt: 1_700_000_000_000 + i,
    tokenCount: 2,
  }));
  await store.append('shared', batch, { idempotencyKey: `${writer}-${i}` });
}
await store.close();
