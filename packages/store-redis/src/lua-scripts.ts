import { createHash } from 'node:crypto';

/** A Lua script and its SHA1, run with EVALSHA (EVAL when the server answers NOSCRIPT). */
export interface LuaScript {
  readonly name: string;
  readonly lua: string;
  readonly sha: string;
}

/*
 * Every script takes the eight keys of one session (see `sessionKeys`), all in one hash slot:
 * KEYS[1] meta hash, [2] active zset (score seq, member = stored message JSON), [3] ids set
 * (active and archived), [4] summary records hash, [5] summary id list (oldest first),
 * [6] archive hash (summary id -> JSON array of the originals), [7] idempotency hash
 * (key -> "version:epoch:firstSeq:lastSeq"), [8] idempotency key list (oldest first).
 * Times are passed as strings and stored as given, so Lua never reformats a large number.
 * Message and summary ids are stored as their JSON text (`idKey`), so ids that are not
 * well-formed UTF-16 (lone surrogates) still map to distinct, exact Redis strings.
 */
const PRELUDE = `
local function counters()
  local v = redis.call('HMGET', KEYS[1], 'version', 'epoch', 'lastSeq', 'state')
  return tonumber(v[1]) or 0, tonumber(v[2]) or 0, tonumber(v[3]) or 0, v[4] == 'live'
end
local function fresh(now)
  for i = 2, #KEYS do redis.call('DEL', KEYS[i]) end
  redis.call('HSET', KEYS[1], 'state', 'live', 'count', 0, 'tokens', 0, 'createdAt', now)
end
local function touch(ttl)
  for i = 1, #KEYS do
    if ttl > 0 then redis.call('PEXPIRE', KEYS[i], ttl) else redis.call('PERSIST', KEYS[i]) end
  end
end
local function addMessages(first, n, at)
  for i = 1, n do
    local seq = first + i - 1
    redis.call('ZADD', KEYS[2], seq, '{"seq":' .. seq .. ',' .. string.sub(ARGV[at + 2 * i], 2))
    redis.call('SADD', KEYS[3], ARGV[at + 2 * i - 1])
  end
end
`;

/** ARGV: now, ttl, key, tokens, n, then n pairs (id, message JSON without seq). */
const APPEND = `${PRELUDE}
local now, ttl, key, tokens, n = ARGV[1], tonumber(ARGV[2]), ARGV[3], ARGV[4], tonumber(ARGV[5])
local version, epoch, lastSeq, live = counters()
if live then
  local rec = redis.call('HGET', KEYS[7], key)
  if rec then return {'dup', rec} end
  for i = 1, n do
    if redis.call('SISMEMBER', KEYS[3], ARGV[4 + 2 * i]) == 1 then return {'id', i - 1} end
  end
else
  fresh(now)
end
addMessages(lastSeq + 1, n, 5)
version = version + 1
local rec = version .. ':' .. epoch .. ':' .. (lastSeq + 1) .. ':' .. (lastSeq + n)
redis.call('HSET', KEYS[1], 'version', version, 'epoch', epoch, 'lastSeq', lastSeq + n, 'updatedAt', now)
redis.call('HINCRBY', KEYS[1], 'count', n)
redis.call('HINCRBY', KEYS[1], 'tokens', tokens)
redis.call('HSET', KEYS[7], key, rec)
redis.call('RPUSH', KEYS[8], key)
while redis.call('LLEN', KEYS[8]) > 1024 do
  redis.call('HDEL', KEYS[7], redis.call('LPOP', KEYS[8]))
end
touch(ttl)
return {'ok', rec}
`;

/** ARGV: now, ttl, expectedVersion ('' = none), tokens, n, then n pairs (id, JSON). */
const REPLACE = `${PRELUDE}
local now, ttl, expected, tokens, n = ARGV[1], tonumber(ARGV[2]), ARGV[3], ARGV[4], tonumber(ARGV[5])
local version, epoch, lastSeq, live = counters()
if expected ~= '' and tonumber(expected) ~= version then return {'version', version} end
if live then
  for i = 2, 6 do redis.call('DEL', KEYS[i]) end
else
  fresh(now)
end
addMessages(lastSeq + 1, n, 5)
version = version + 1
epoch = epoch + 1
local rec = version .. ':' .. epoch .. ':' .. (lastSeq + 1) .. ':' .. (lastSeq + n)
redis.call('HSET', KEYS[1], 'version', version, 'epoch', epoch, 'lastSeq', lastSeq + n,
  'updatedAt', now, 'count', n, 'tokens', tokens)
touch(ttl)
return {'ok', rec}
`;

/**
 * CAS on epoch (and every planned member must still be active, which also catches an import at
 * the same epoch), then the change planned from a read at that epoch. ARGV: now, ttl, expectedEpoch, summaryId, summary member, summary
 * seq, record JSON, archive JSON, replaced count, token delta, then the replaced members.
 */
const COMPACT = `${PRELUDE}
local now, ttl, expected = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local version, epoch, lastSeq, live = counters()
if epoch ~= expected then return {'epoch', epoch} end
if not live then return {'gone'} end
local sid = ARGV[4]
if redis.call('SISMEMBER', KEYS[3], sid) == 1 then return {'sid'} end
for i = 11, #ARGV do
  if not redis.call('ZSCORE', KEYS[2], ARGV[i]) then return {'epoch', epoch} end
end
for i = 11, #ARGV do redis.call('ZREM', KEYS[2], ARGV[i]) end
redis.call('ZADD', KEYS[2], ARGV[6], ARGV[5])
redis.call('SADD', KEYS[3], sid)
redis.call('HSET', KEYS[4], sid, ARGV[7])
redis.call('RPUSH', KEYS[5], sid)
redis.call('HSET', KEYS[6], sid, ARGV[8])
version = version + 1
epoch = epoch + 1
redis.call('HSET', KEYS[1], 'version', version, 'epoch', epoch, 'updatedAt', now)
redis.call('HINCRBY', KEYS[1], 'count', 1 - tonumber(ARGV[9]))
redis.call('HINCRBY', KEYS[1], 'tokens', ARGV[10])
touch(ttl)
return {'ok', version, epoch}
`;

/**
 * CAS on epoch (and every planned member must still be active); erases the planned members,
 * forgets the planned ids and drops the planned summaries (records and archives), which the
 * caller computed from a read at that epoch. ARGV: now, ttl, expectedEpoch, token delta, then
 * counts n (members), m (ids), k (summaries), then the n members, m ids, k summary ids.
 */
const ERASE = `${PRELUDE}
local now, ttl, expected = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local n, m, k = tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])
local version, epoch, lastSeq, live = counters()
if epoch ~= expected then return {'epoch', epoch} end
if not live then return {'gone'} end
for i = 8, 7 + n do
  if not redis.call('ZSCORE', KEYS[2], ARGV[i]) then return {'epoch', epoch} end
end
for i = 8, 7 + n do redis.call('ZREM', KEYS[2], ARGV[i]) end
for i = 8 + n, 7 + n + m do redis.call('SREM', KEYS[3], ARGV[i]) end
for i = 8 + n + m, 7 + n + m + k do
  redis.call('HDEL', KEYS[4], ARGV[i])
  redis.call('HDEL', KEYS[6], ARGV[i])
  redis.call('LREM', KEYS[5], 0, ARGV[i])
end
version = version + 1
epoch = epoch + 1
redis.call('HSET', KEYS[1], 'version', version, 'epoch', epoch, 'updatedAt', now)
redis.call('HINCRBY', KEYS[1], 'count', -n)
redis.call('HINCRBY', KEYS[1], 'tokens', ARGV[4])
touch(ttl)
return {'ok', version, epoch}
`;

/** ARGV: now, ttl. Keeps the counters (version + 1, epoch + 1, lastSeq). */
const CLEAR = `${PRELUDE}
local now, ttl = ARGV[1], tonumber(ARGV[2])
local version, epoch, lastSeq, live = counters()
if not live then return 0 end
for i = 2, #KEYS do redis.call('DEL', KEYS[i]) end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'state', 'cleared', 'version', version + 1, 'epoch', epoch + 1,
  'lastSeq', lastSeq, 'updatedAt', now)
touch(ttl)
return 1
`;

/**
 * Writes a checked snapshot over the session. ARGV: ttl, version, epoch, lastSeq, count, tokens,
 * createdAt, updatedAt, nActive, nSummaries, nKeys, nIds, then nActive pairs (seq, member),
 * nSummaries triples (id, record JSON, archive JSON), nKeys pairs (key, record), nIds ids.
 */
const IMPORT = `${PRELUDE}
local ttl = tonumber(ARGV[1])
for i = 1, #KEYS do redis.call('DEL', KEYS[i]) end
redis.call('HSET', KEYS[1], 'state', 'live', 'version', ARGV[2], 'epoch', ARGV[3], 'lastSeq', ARGV[4],
  'count', ARGV[5], 'tokens', ARGV[6], 'createdAt', ARGV[7], 'updatedAt', ARGV[8])
local nActive, nSummaries, nKeys, nIds = tonumber(ARGV[9]), tonumber(ARGV[10]), tonumber(ARGV[11]), tonumber(ARGV[12])
local at = 12
for i = 1, nActive do
  redis.call('ZADD', KEYS[2], ARGV[at + 1], ARGV[at + 2])
  at = at + 2
end
for i = 1, nSummaries do
  redis.call('HSET', KEYS[4], ARGV[at + 1], ARGV[at + 2])
  redis.call('RPUSH', KEYS[5], ARGV[at + 1])
  redis.call('HSET', KEYS[6], ARGV[at + 1], ARGV[at + 3])
  at = at + 3
end
for i = 1, nKeys do
  redis.call('HSET', KEYS[7], ARGV[at + 1], ARGV[at + 2])
  redis.call('RPUSH', KEYS[8], ARGV[at + 1])
  at = at + 2
end
for i = 1, nIds do
  redis.call('SADD', KEYS[3], ARGV[at + i])
end
touch(ttl)
return 1
`;

/** Meta counters plus a seq range. ARGV: min, max, rev ('1'/'0'), limit ('' = none). */
const READ = `
local meta = redis.call('HMGET', KEYS[1], 'state', 'version', 'epoch')
local out = {meta[1] or '', meta[2] or '0', meta[3] or '0'}
if meta[1] ~= 'live' or ARGV[4] == '0' then return {out, {}} end
local args = {'ZRANGE', KEYS[2], ARGV[1], ARGV[2], 'BYSCORE'}
if ARGV[3] == '1' then args = {'ZRANGE', KEYS[2], ARGV[2], ARGV[1], 'BYSCORE', 'REV'} end
if ARGV[4] ~= '' then
  args[#args + 1] = 'LIMIT'
  args[#args + 1] = 0
  args[#args + 1] = ARGV[4]
end
return {out, redis.call(unpack(args))}
`;

/**
 * What compact and erase plan from. ARGV: throughSeq, summary id key ('' for erase), '1' to
 * include the records. Returns {state, epoch, summary id used, first seq, last seq}, the prefix
 * members, the summary id keys, and the records (flat field/value list) when asked.
 */
const PREPARE = `
local meta = redis.call('HMGET', KEYS[1], 'state', 'epoch')
local first = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
local last = redis.call('ZRANGE', KEYS[2], -1, -1, 'WITHSCORES')
local used = 0
if ARGV[2] ~= '' then used = redis.call('SISMEMBER', KEYS[3], ARGV[2]) end
local head = {meta[1] or '', meta[2] or '0', used, first[2] or '', last[2] or ''}
local prefix = redis.call('ZRANGE', KEYS[2], '-inf', ARGV[1], 'BYSCORE')
local records = {}
if ARGV[3] == '1' then records = redis.call('HGETALL', KEYS[4]) end
return {head, prefix, redis.call('LRANGE', KEYS[5], 0, -1), records}
`;

/** Records oldest first (only for a live session). */
const SUMMARIES = `
if redis.call('HGET', KEYS[1], 'state') ~= 'live' then return {} end
local ids = redis.call('LRANGE', KEYS[5], 0, -1)
if #ids == 0 then return {} end
local out = {}
for i = 1, #ids do out[i] = redis.call('HGET', KEYS[4], ids[i]) end
return out
`;

/** The archive of one summary (ARGV[1]) of a live session, or false. */
const ARCHIVED = `
if redis.call('HGET', KEYS[1], 'state') ~= 'live' then return false end
return redis.call('HGET', KEYS[6], ARGV[1])
`;

/** Everything of a live session: meta, active members, records, archives, idempotency records. */
const EXPORT = `
if redis.call('HGET', KEYS[1], 'state') ~= 'live' then return false end
local ids = redis.call('LRANGE', KEYS[5], 0, -1)
local records, archives = {}, {}
for i = 1, #ids do
  records[i] = redis.call('HGET', KEYS[4], ids[i])
  archives[i] = redis.call('HGET', KEYS[6], ids[i])
end
local keys = redis.call('LRANGE', KEYS[8], 0, -1)
local results = {}
for i = 1, #keys do results[i] = redis.call('HGET', KEYS[7], keys[i]) end
return {redis.call('HGETALL', KEYS[1]), redis.call('ZRANGE', KEYS[2], 0, -1), records, archives,
  keys, results}
`;

function script(name: string, lua: string): LuaScript {
  return { name, lua, sha: createHash('sha1').update(lua).digest('hex') };
}

export const SCRIPTS = {
  append: script('append', APPEND),
  replace: script('replace', REPLACE),
  compact: script('compact', COMPACT),
  erase: script('erase', ERASE),
  clear: script('clear', CLEAR),
  import: script('import', IMPORT),
  read: script('read', READ),
  prepare: script('prepare', PREPARE),
  summaries: script('summaries', SUMMARIES),
  archived: script('archived', ARCHIVED),
  export: script('export', EXPORT),
} as const;
