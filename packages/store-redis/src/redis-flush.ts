import { MemStoreConflictError } from '@mem/core';
import { epochConflictError, type FlushResult } from '@mem/core/backend';
import type { Cluster, Redis } from 'ioredis';
import { decodeArchive } from './decode-stored.ts';
import { idField } from './encode-stored.ts';
import { PRELUDE, script } from './lua-scripts.ts';
import { runScript } from './redis-connection.ts';

/*
 * `flush` on Redis: a read script lists the session's summaries and archives at one epoch, the
 * client works out the ids to free (archived messages' `i:` fields: only the client decodes
 * message JSON), and a second script commits at that epoch if the summary list is still the one
 * read. Keys as in lua-scripts.ts.
 */

/** Returns {state, epoch, summary id keys (oldest first), their archives (JSON arrays)}. */
const FLUSH_PLAN = script(
  'flushPlan',
  `
local meta = redis.call('HMGET', KEYS[1], 'state', 'epoch')
local ids = redis.call('LRANGE', KEYS[4], 0, -1)
local archives = {}
for i = 1, #ids do archives[i] = redis.call('HGET', KEYS[5], ids[i]) or '[]' end
return {meta[1] or '', meta[2] or '0', ids, archives}
`,
);

/**
 * CAS on epoch, and the summary list must be the planned one (an import at the same epoch
 * changes it: 'moved', plan again). ARGV: now, ttl, expectedEpoch, k, then the k planned summary
 * id keys, then the id fields to free. Returns {'ok', version, epoch}, {'none', version, epoch}
 * when there is nothing to drop, {'epoch', epoch} or {'moved'}.
 */
const FLUSH = script(
  'flush',
  `${PRELUDE}
local now, ttl, expected, k = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local version, epoch, lastSeq, live = counters()
if epoch ~= expected then return {'epoch', epoch} end
if not live then return {'none', version, epoch} end
local ids = redis.call('LRANGE', KEYS[4], 0, -1)
if #ids ~= k then return {'moved'} end
for i = 1, k do
  if ids[i] ~= ARGV[4 + i] then return {'moved'} end
end
if k == 0 then return {'none', version, epoch} end
redis.call('DEL', KEYS[3], KEYS[4], KEYS[5])
local free = {}
for i = 5 + k, #ARGV do free[#free + 1] = ARGV[i] end
if #free > 0 then many('HDEL', KEYS[1], free) end
version = version + 1
epoch = epoch + 1
redis.call('HSET', KEYS[1], 'version', version, 'epoch', epoch, 'updatedAt', now)
touch(ttl)
return {'ok', version, epoch}
`,
);

/** Plans before giving up when imports keep changing the summaries at the same epoch. */
const MAX_PLANS = 5;

export async function flushOnRedis(
  client: Redis | Cluster,
  keys: readonly string[],
  sessionId: string,
  expectedEpoch: number,
  at: () => string,
  ttl: number,
): Promise<FlushResult> {
  for (let plan = 1; plan <= MAX_PLANS; plan++) {
    const [state, epochText, summaryKeys, archives] = (await runScript(
      client,
      FLUSH_PLAN,
      keys,
      [],
    )) as [string, string, string[], string[]];
    const epoch = Number(epochText);
    if (epoch !== expectedEpoch) throw epochConflictError(sessionId, expectedEpoch, epoch);
    const freed =
      state === 'live' ? archives.flatMap((a) => decodeArchive(a).map((m) => m.id)) : [];
    const reply = (await runScript(client, FLUSH, keys, [
      at(),
      ttl,
      expectedEpoch,
      summaryKeys.length,
      ...summaryKeys,
      ...freed.map(idField),
    ])) as [string, number?, number?];
    const [status, first, second] = reply;
    if (status === 'moved') continue;
    if (status === 'epoch') throw epochConflictError(sessionId, expectedEpoch, Number(first));
    const dropped =
      status === 'ok'
        ? { droppedMessages: freed.length, droppedSummaries: summaryKeys.length }
        : { droppedMessages: 0, droppedSummaries: 0 };
    return { version: Number(first), epoch: Number(second), ...dropped };
  }
  throw new MemStoreConflictError({
    sessionId,
    counter: 'epoch',
    expected: expectedEpoch,
    actual: expectedEpoch,
  });
}
