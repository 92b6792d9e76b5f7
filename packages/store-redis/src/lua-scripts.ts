import { createHash } from 'node:crypto';
import { TRIM_SLACK } from './append-plan.ts';
import { IDEMPOTENCY_WINDOW } from './encode-stored.ts';

/** A Lua script and its SHA1, run with EVALSHA (EVAL when the server answers NOSCRIPT). */
export interface LuaScript {
  readonly name: string;
  readonly lua: string;
  readonly sha: string;
}

/*
 * Every script takes the five keys of one session (see `sessionKeys`), all in one hash slot:
 * KEYS[1] meta hash, [2] active zset (score seq, member = stored message JSON), [3] summary
 * records hash, [4] summary id list (oldest first), [5] archive hash (summary id -> JSON array
 * of the originals).
 *
 * The meta hash holds, besides the counters (state, version, epoch, lastSeq, count, tokens,
 * createdAt, updatedAt) and `user` (the user the session is bound to, v3; `clear` drops it):
 * - `i:<id>` for every message and summary id of the session (active or archived; the value is
 *   never read: an append writes '1', a compaction the summary's seq, an import 0);
 * - `k:<key>` -> "version:epoch:firstSeq:lastSeq" for every idempotency key kept, `o:<n>` -> key
 *   in the order they were applied (n = ko - kn + 1 .. ko, oldest first), and `kn`, `ko`.
 * So an append reads everything it checks with one HMGET and writes its ids and bookkeeping
 * with one HSET; keys beyond the window are dropped TRIM_SLACK + 1 at a time (O(1) per append amortized).
 *
 * Times are passed as strings and stored as given, so Lua never reformats a large number.
 * Message and summary ids are stored as their JSON text (`idKey`). Core's shared checks reject
 * ids and idempotency keys that are not well-formed Unicode (lone surrogates), which Redis's
 * UTF-8 strings could not hold exactly.
 * An active message is stored as its own JSON (unique: it holds the id) with its seq as the
 * score, so no script builds message text; reads take WITHSCORES. Archived messages (in the
 * archive hash) are JSON with `"seq":N` as the last field.
 */
export const PRELUDE = `
local function counters()
  local v = redis.call('HMGET', KEYS[1], 'version', 'epoch', 'lastSeq', 'state')
  return tonumber(v[1]) or 0, tonumber(v[2]) or 0, tonumber(v[3]) or 0, v[4] == 'live'
end
local function touch(ttl)
  if ttl > 0 then
    for i = 1, #KEYS do redis.call('PEXPIRE', KEYS[i], ttl) end
  elseif redis.call('PTTL', KEYS[1]) >= 0 then
    for i = 1, #KEYS do redis.call('PERSIST', KEYS[i]) end
  end
end
-- cmd key a[1..#a], in calls of at most 1000 arguments (Lua's unpack has a stack limit).
local function many(cmd, key, a)
  for i = 1, #a, 1000 do
    redis.call(cmd, key, unpack(a, i, math.min(#a, i + 999)))
  end
end
-- HMGET of any number of fields.
local function hmget(key, fields)
  local out = {}
  for i = 1, #fields, 1000 do
    local part = redis.call('HMGET', key, unpack(fields, i, math.min(#fields, i + 999)))
    for j = 1, #part do out[i + j - 1] = part[j] end
  end
  return out
end
-- ZADDs the n members at ARGV[at + n + 1 ..] with seqs first ..; adds their 'i:' fields
-- (ARGV[at + 1 ..], value seq) to the meta field list h.
local function addMessages(first, n, at, h)
  local z = {}
  for i = 1, n do
    z[2 * i - 1] = first + i - 1
    z[2 * i] = ARGV[at + n + i]
    h[#h + 1] = ARGV[at + i]
    h[#h + 1] = first + i - 1
  end
  if n > 0 then many('ZADD', KEYS[2], z) end
end
-- Deletes every 'i:' field of the meta hash (replace: every id is forgotten).
local function forgetIds()
  local all = redis.call('HGETALL', KEYS[1])
  local drop = {}
  for i = 1, #all, 2 do
    if string.sub(all[i], 1, 2) == 'i:' then drop[#drop + 1] = all[i] end
  end
  if #drop > 0 then many('HDEL', KEYS[1], drop) end
end
`;

/**
 * ARGV: see `appendArgs` (append-plan.ts): now, ttl, key field, key, tokens, n, the 7 counters
 * the client's plan expects, the planned record, the n id fields, the planned HSET arguments,
 * the planned ZADD arguments. One HMGET (counters, the key's record, the ids) decides:
 * - the plan: when the counters are exactly the expected text (the client's last append left
 *   them so: one writer per session, the usual case), ZADD and HSET take their arguments from
 *   ARGV as they are. Lua formats and parses no number and builds no table: on Redis 7.0 each
 *   number passed to redis.call is printed with %.17g, which costs more than the commands.
 * - otherwise (first append, another writer, a compaction, a trim due) the script computes the
 *   values itself as before and returns them (count, tokens, kn, ko) for the client's next plan.
 * Either way four commands: HMGET, ZADD, HSET, PTTL (PEXPIRE with a ttl). An id field holds '1'
 * (nothing reads it; imports and older versions wrote a seq or 0); the epoch is written only by
 * a first append.
 *
 * Users (v3): the last two ARGV are the user the append names ('' for none) and '1' when the
 * client has already added the session to that user's index. The meta field `user` holds the
 * binding. An append naming another user than the bound one returns {'user'} before anything
 * else (a duplicate key included); one that would bind the session (it is new, cleared or
 * unbound) returns {'index'} unless the index flag is '1', so the index (in another slot) is
 * always written first and stays a superset; the append that binds returns 'bound' instead of
 * 'ok'. A duplicate or a refused id binds nothing.
 */
const APPEND = `
local n = tonumber(ARGV[6])
local hs = 15 + n
local zs = hs + 18 + 2 * n
local user, indexed = ARGV[zs + 2 * n] or '', ARGV[zs + 2 * n + 1]
-- cmd key ARGV[from..to], in calls of at most 1000 arguments (Lua's unpack has a stack limit).
local function call(cmd, key, from, to)
  for c = from, to, 1000 do
    redis.call(cmd, key, unpack(ARGV, c, math.min(to, c + 999)))
  end
end
local function many(cmd, key, a)
  for i = 1, #a, 1000 do
    redis.call(cmd, key, unpack(a, i, math.min(#a, i + 999)))
  end
end
local function touch()
  if ARGV[2] ~= '0' then
    for i = 1, #KEYS do redis.call('PEXPIRE', KEYS[i], ARGV[2]) end
  elseif redis.call('PTTL', KEYS[1]) >= 0 then
    for i = 1, #KEYS do redis.call('PERSIST', KEYS[i]) end
  end
end
local v
if n <= 1000 then
  v = redis.call('HMGET', KEYS[1], 'state', 'version', 'epoch', 'lastSeq', 'count', 'tokens', 'kn',
    'ko', ARGV[3], unpack(ARGV, 15, 14 + n))
else
  v = redis.call('HMGET', KEYS[1], 'state', 'version', 'epoch', 'lastSeq', 'count', 'tokens', 'kn',
    'ko', ARGV[3])
  for c = 15, 14 + n, 1000 do
    local part = redis.call('HMGET', KEYS[1], unpack(ARGV, c, math.min(14 + n, c + 999)))
    for j = 1, #part do v[c - 6 + j] = part[j] end
  end
end
local live = v[1] == 'live'
local status = 'ok'
if user ~= '' then
  local bound = live and redis.call('HGET', KEYS[1], 'user')
  if bound then
    if bound ~= user then return {'user'} end
  elseif indexed ~= '1' then
    return {'index'}
  else
    status = 'bound'
  end
end
if live then
  if v[9] then return {'dup', v[9]} end
  for i = 1, n do
    if v[9 + i] then return {'id', i - 1} end
  end
  if v[2] == ARGV[7] and v[3] == ARGV[8] and v[4] == ARGV[9] and v[5] == ARGV[10]
    and v[6] == ARGV[11] and v[7] == ARGV[12] and v[8] == ARGV[13] then
    call('ZADD', KEYS[2], zs, zs + 2 * n - 1)
    call('HSET', KEYS[1], hs, zs - 1)
    if status == 'bound' then redis.call('HSET', KEYS[1], 'user', user) end
    touch()
    return {status, ARGV[14]}
  end
end
local version, epoch, lastSeq = tonumber(v[2]) or 0, v[3] or '0', tonumber(v[4]) or 0
local count, total, kn, ko = 0, 0, 0, 0
local h
if live then
  count, total = tonumber(v[5]) or 0, tonumber(v[6]) or 0
  kn, ko = tonumber(v[7]) or 0, tonumber(v[8]) or 0
  h = {}
else
  redis.call('DEL', unpack(KEYS, 2))
  h = {'state', 'live', 'createdAt', ARGV[1], 'epoch', epoch}
end
if status == 'bound' then
  h[#h + 1] = 'user'
  h[#h + 1] = user
end
version = version + 1
kn = kn + 1
ko = ko + 1
count = count + n
total = total + tonumber(ARGV[5])
if kn > ${IDEMPOTENCY_WINDOW + TRIM_SLACK} then
  local of = {}
  for i = 1, kn - ${IDEMPOTENCY_WINDOW} do of[i] = 'o:' .. (ko - kn + i) end
  local old = redis.call('HMGET', KEYS[1], unpack(of))
  local drop = {}
  for i = 1, #of do
    drop[#drop + 1] = of[i]
    if old[i] then drop[#drop + 1] = 'k:' .. old[i] end
  end
  redis.call('HDEL', KEYS[1], unpack(drop))
  kn = ${IDEMPOTENCY_WINDOW}
end
local rec = version .. ':' .. epoch .. ':' .. (lastSeq + 1) .. ':' .. (lastSeq + n)
local m = #h
h[m + 1], h[m + 2] = 'version', version
h[m + 3], h[m + 4] = 'lastSeq', lastSeq + n
h[m + 5], h[m + 6] = 'count', count
h[m + 7], h[m + 8] = 'tokens', total
h[m + 9], h[m + 10] = 'updatedAt', ARGV[1]
h[m + 11], h[m + 12] = 'kn', kn
h[m + 13], h[m + 14] = 'ko', ko
h[m + 15], h[m + 16] = ARGV[3], rec
h[m + 17], h[m + 18] = 'o:' .. ko, ARGV[4]
m = m + 18
local z = {}
for i = 1, n do
  z[2 * i - 1] = lastSeq + i
  z[2 * i] = ARGV[zs + 2 * i - 1]
  h[m + 2 * i - 1] = ARGV[14 + i]
  h[m + 2 * i] = '1'
end
many('ZADD', KEYS[2], z)
many('HSET', KEYS[1], h)
touch()
return {status, rec, count, total, kn, ko}
`;

/** ARGV: now, ttl, expectedVersion ('' = none), tokens, n, then n id fields, n message JSONs. */
const REPLACE = `${PRELUDE}
local now, ttl, expected, tokens, n = ARGV[1], tonumber(ARGV[2]), ARGV[3], ARGV[4], tonumber(ARGV[5])
local version, epoch, lastSeq, live = counters()
if expected ~= '' and tonumber(expected) ~= version then return {'version', version} end
redis.call('DEL', unpack(KEYS, 2))
local h = {}
if live then
  forgetIds()
else
  h = {'state', 'live', 'createdAt', now}
end
addMessages(lastSeq + 1, n, 5, h)
version = version + 1
epoch = epoch + 1
local rec = version .. ':' .. epoch .. ':' .. (lastSeq + 1) .. ':' .. (lastSeq + n)
local tail = {'version', version, 'epoch', epoch, 'lastSeq', lastSeq + n, 'updatedAt', now,
  'count', n, 'tokens', tokens}
for i = 1, #tail do h[#h + 1] = tail[i] end
many('HSET', KEYS[1], h)
touch(ttl)
return {'ok', rec}
`;

/**
 * CAS on epoch (and every planned member must still be active, which also catches an import at
 * the same epoch), then the change planned from a read at that epoch. ARGV: now, ttl,
 * expectedEpoch, summaryId, summary member, summary seq, record JSON, archive JSON, replaced
 * count, token delta, then the replaced members.
 */
const COMPACT = `${PRELUDE}
local now, ttl, expected = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local version, epoch, lastSeq, live = counters()
if epoch ~= expected then return {'epoch', epoch} end
if not live then return {'gone'} end
local sid = ARGV[4]
if redis.call('HEXISTS', KEYS[1], 'i:' .. sid) == 1 then return {'sid'} end
for i = 11, #ARGV do
  if not redis.call('ZSCORE', KEYS[2], ARGV[i]) then return {'epoch', epoch} end
end
local gone = {}
for i = 11, #ARGV do gone[#gone + 1] = ARGV[i] end
if #gone > 0 then many('ZREM', KEYS[2], gone) end
redis.call('ZADD', KEYS[2], ARGV[6], ARGV[5])
redis.call('HSET', KEYS[3], sid, ARGV[7])
redis.call('RPUSH', KEYS[4], sid)
redis.call('HSET', KEYS[5], sid, ARGV[8])
version = version + 1
epoch = epoch + 1
redis.call('HSET', KEYS[1], 'version', version, 'epoch', epoch, 'updatedAt', now, 'i:' .. sid, ARGV[6])
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
local ids = {}
for i = 8 + n, 7 + n + m do ids[#ids + 1] = 'i:' .. ARGV[i] end
if #ids > 0 then many('HDEL', KEYS[1], ids) end
for i = 8 + n + m, 7 + n + m + k do
  redis.call('HDEL', KEYS[3], ARGV[i])
  redis.call('HDEL', KEYS[5], ARGV[i])
  redis.call('LREM', KEYS[4], 0, ARGV[i])
end
version = version + 1
epoch = epoch + 1
redis.call('HSET', KEYS[1], 'version', version, 'epoch', epoch, 'updatedAt', now)
redis.call('HINCRBY', KEYS[1], 'count', -n)
redis.call('HINCRBY', KEYS[1], 'tokens', ARGV[4])
touch(ttl)
return {'ok', version, epoch}
`;

/**
 * Removes the newest active member if it is still `ARGV[3]` (the caller read it just before;
 * 'moved' when an append, pop or rewrite got in between, and the caller reads again), unless it
 * is a summary. ARGV: now, ttl, member, id key, token count. Returns {'ok', version, epoch}, or
 * {'none', version, epoch} when nothing is removed (not live, empty, or a summary on top).
 */
const POP = `${PRELUDE}
local now, ttl = ARGV[1], tonumber(ARGV[2])
local version, epoch, lastSeq, live = counters()
if not live then return {'none', version, epoch} end
local newest = redis.call('ZRANGE', KEYS[2], -1, -1)
if #newest == 0 then return {'none', version, epoch} end
if newest[1] ~= ARGV[3] then return {'moved', version, epoch} end
if redis.call('HEXISTS', KEYS[3], ARGV[4]) == 1 then return {'none', version, epoch} end
redis.call('ZREM', KEYS[2], ARGV[3])
version = version + 1
epoch = epoch + 1
redis.call('HDEL', KEYS[1], 'i:' .. ARGV[4])
redis.call('HSET', KEYS[1], 'version', version, 'epoch', epoch, 'updatedAt', now)
redis.call('HINCRBY', KEYS[1], 'count', -1)
redis.call('HINCRBY', KEYS[1], 'tokens', -tonumber(ARGV[5]))
touch(ttl)
return {'ok', version, epoch}
`;

/** ARGV: now, ttl. Keeps the counters (version + 1, epoch + 1, lastSeq). */
const CLEAR = `${PRELUDE}
local now, ttl = ARGV[1], tonumber(ARGV[2])
local version, epoch, lastSeq, live = counters()
if not live then return 0 end
redis.call('DEL', unpack(KEYS))
redis.call('HSET', KEYS[1], 'state', 'cleared', 'version', version + 1, 'epoch', epoch + 1,
  'lastSeq', lastSeq, 'updatedAt', now)
touch(ttl)
return 1
`;

/**
 * Writes a checked snapshot over the session. ARGV: ttl, version, epoch, lastSeq, count, tokens,
 * createdAt, updatedAt, nActive, nSummaries, nKeys, nIds, user ('' for none), then nActive pairs
 * (seq, member), nSummaries triples (id, record JSON, archive JSON), nKeys pairs (key, record),
 * nIds ids.
 */
const IMPORT = `${PRELUDE}
local ttl = tonumber(ARGV[1])
redis.call('DEL', unpack(KEYS))
local nActive, nSummaries, nKeys, nIds = tonumber(ARGV[9]), tonumber(ARGV[10]), tonumber(ARGV[11]), tonumber(ARGV[12])
local h = {'state', 'live', 'version', ARGV[2], 'epoch', ARGV[3], 'lastSeq', ARGV[4],
  'count', ARGV[5], 'tokens', ARGV[6], 'createdAt', ARGV[7], 'updatedAt', ARGV[8], 'kn', nKeys,
  'ko', nKeys}
if ARGV[13] ~= '' then
  h[#h + 1] = 'user'
  h[#h + 1] = ARGV[13]
end
local at = 13
local z = {}
for i = 1, nActive do
  z[#z + 1] = ARGV[at + 1]
  z[#z + 1] = ARGV[at + 2]
  at = at + 2
end
if #z > 0 then many('ZADD', KEYS[2], z) end
for i = 1, nSummaries do
  redis.call('HSET', KEYS[3], ARGV[at + 1], ARGV[at + 2])
  redis.call('RPUSH', KEYS[4], ARGV[at + 1])
  redis.call('HSET', KEYS[5], ARGV[at + 1], ARGV[at + 3])
  at = at + 3
end
for i = 1, nKeys do
  h[#h + 1] = 'k:' .. ARGV[at + 1]
  h[#h + 1] = ARGV[at + 2]
  h[#h + 1] = 'o:' .. i
  h[#h + 1] = ARGV[at + 1]
  at = at + 2
end
for i = 1, nIds do
  h[#h + 1] = 'i:' .. ARGV[at + i]
  h[#h + 1] = 0
end
many('HSET', KEYS[1], h)
touch(ttl)
return 1
`;

/**
 * What compact and erase plan from. ARGV: throughSeq, summary id key ('' for erase), '1' to
 * include the records. Returns {state, epoch, summary id used, first seq, last seq}, the prefix
 * (member, seq pairs), the summary id keys, and the records (flat field/value list) when asked.
 */
const PREPARE = `
local meta = redis.call('HMGET', KEYS[1], 'state', 'epoch')
local first = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
local last = redis.call('ZRANGE', KEYS[2], -1, -1, 'WITHSCORES')
local used = 0
if ARGV[2] ~= '' then used = redis.call('HEXISTS', KEYS[1], 'i:' .. ARGV[2]) end
local head = {meta[1] or '', meta[2] or '0', used, first[2] or '', last[2] or ''}
local prefix = redis.call('ZRANGE', KEYS[2], '-inf', ARGV[1], 'BYSCORE', 'WITHSCORES')
local records = {}
if ARGV[3] == '1' then records = redis.call('HGETALL', KEYS[3]) end
return {head, prefix, redis.call('LRANGE', KEYS[4], 0, -1), records}
`;

/** Records oldest first (only for a live session). */
const SUMMARIES = `
if redis.call('HGET', KEYS[1], 'state') ~= 'live' then return {} end
local ids = redis.call('LRANGE', KEYS[4], 0, -1)
if #ids == 0 then return {} end
local out = {}
for i = 1, #ids do out[i] = redis.call('HGET', KEYS[3], ids[i]) end
return out
`;

/** The archive of one summary (ARGV[1]) of a live session, or false. */
const ARCHIVED = `
if redis.call('HGET', KEYS[1], 'state') ~= 'live' then return false end
return redis.call('HGET', KEYS[5], ARGV[1])
`;

/**
 * Everything of a live session: the info fields (`user` among them when bound) (flat field/value list), active members,
 * records, archives, and the idempotency keys with their records (oldest first).
 */
const EXPORT = `
local names = {'state', 'version', 'epoch', 'lastSeq', 'count', 'tokens', 'createdAt', 'updatedAt',
  'user', 'kn', 'ko'}
local v = redis.call('HMGET', KEYS[1], unpack(names))
if v[1] ~= 'live' then return false end
local meta = {}
for i = 1, 9 do
  if v[i] then
    meta[#meta + 1] = names[i]
    meta[#meta + 1] = v[i]
  end
end
local ids = redis.call('LRANGE', KEYS[4], 0, -1)
local records, archives = {}, {}
for i = 1, #ids do
  records[i] = redis.call('HGET', KEYS[3], ids[i])
  archives[i] = redis.call('HGET', KEYS[5], ids[i])
end
local kn, ko = tonumber(v[10]) or 0, tonumber(v[11]) or 0
local keys, results = {}, {}
for i = 1, kn do
  local key = redis.call('HGET', KEYS[1], 'o:' .. (ko - kn + i))
  if key then
    keys[#keys + 1] = key
    results[#results + 1] = redis.call('HGET', KEYS[1], 'k:' .. key)
  end
end
return {meta, redis.call('ZRANGE', KEYS[2], 0, -1, 'WITHSCORES'), records, archives, keys, results}
`;

export function script(name: string, lua: string): LuaScript {
  return { name, lua, sha: createHash('sha1').update(lua).digest('hex') };
}

export const SCRIPTS = {
  append: script('append', APPEND),
  replace: script('replace', REPLACE),
  compact: script('compact', COMPACT),
  erase: script('erase', ERASE),
  pop: script('pop', POP),
  clear: script('clear', CLEAR),
  import: script('import', IMPORT),
  prepare: script('prepare', PREPARE),
  summaries: script('summaries', SUMMARIES),
  archived: script('archived', ARCHIVED),
  export: script('export', EXPORT),
} as const;
