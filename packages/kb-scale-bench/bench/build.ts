import { existsSync, statSync } from 'node:fs';
import { kbKeys } from '@mem/store-redis';
import BetterSqlite3 from 'better-sqlite3';
import { Redis } from 'ioredis';
import { collectionFor, fill, openKnowledgeBase, type Places } from './backends.ts';
import { SESSIONS, sessionId } from './dialogue-chunks.ts';

const fileSize = (path: string) => (existsSync(path) ? statSync(path).size : 0);

export interface SqliteBuild {
  ingestMs: number;
  /** The database file and its WAL right after the knowledge base closed. */
  dbBytes: number;
  walBytes: number;
  /** The file after a WAL checkpoint (TRUNCATE), as the fresh processes open it. */
  checkpointedBytes: number;
}

/** Builds the SQLite knowledge base of `size` chunks at `places.sqlitePath` (a new file). */
export async function buildSqlite(size: number, places: Places): Promise<SqliteBuild> {
  const kb = openKnowledgeBase('sqlite', places);
  const t0 = performance.now();
  await fill(kb, size);
  const ingestMs = performance.now() - t0;
  await kb.close();
  const dbBytes = fileSize(places.sqlitePath);
  const walBytes = fileSize(`${places.sqlitePath}-wal`);
  const db = new BetterSqlite3(places.sqlitePath);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return { ingestMs, dbBytes, walBytes, checkpointedBytes: fileSize(places.sqlitePath) };
}

export interface RedisBuild {
  ingestMs: number;
  /** `INFO memory` used_memory after the build minus before it. */
  usedMemoryDelta: number;
  /** `MEMORY USAGE` of every key of session 0 and of the last session, averaged, × sessions. */
  sampledBytes: number;
  keys: number;
}

async function usedMemory(client: Redis): Promise<number> {
  const match = /used_memory:(\d+)/.exec(await client.info('memory'));
  if (match === null) throw new Error('INFO memory has no used_memory');
  return Number(match[1]);
}

async function sessionBytes(client: Redis, size: number, s: number): Promise<number> {
  let total = 0;
  for (const key of kbKeys('mem', 'default', collectionFor(size), sessionId(s))) {
    total += Number((await client.call('MEMORY', 'USAGE', key, 'SAMPLES', '0')) ?? 0);
  }
  return total;
}

/** Builds the Redis knowledge base of `size` chunks (collection `scale-<size>`). */
export async function buildRedis(size: number, places: Places): Promise<RedisBuild> {
  const probe = new Redis(places.redisUrl);
  try {
    const before = await usedMemory(probe);
    const keysBefore = await probe.dbsize();
    const kb = openKnowledgeBase('redis', places);
    const t0 = performance.now();
    await fill(kb, size);
    const ingestMs = performance.now() - t0;
    await kb.close();
    const sample =
      ((await sessionBytes(probe, size, 0)) + (await sessionBytes(probe, size, SESSIONS - 1))) / 2;
    return {
      ingestMs,
      usedMemoryDelta: (await usedMemory(probe)) - before,
      sampledBytes: sample * SESSIONS,
      keys: (await probe.dbsize()) - keysBefore,
    };
  } finally {
    probe.disconnect();
  }
}
