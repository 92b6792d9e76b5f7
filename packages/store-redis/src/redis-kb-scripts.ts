import { createHash } from 'node:crypto';
import type { Cluster, Redis } from 'ioredis';
import type { LuaScript } from './lua-scripts.ts';

/** A knowledge-base script: its Lua source and SHA1 (for EVALSHA). */
export function kbScript(name: string, lua: string): LuaScript {
  return { name, lua, sha: createHash('sha1').update(lua).digest('hex') };
}

/*
 * Every knowledge-base script takes the eight keys of one (collection, session), all in one hash
 * slot (see `kbKeys`): KEYS[1] ids hash (chunk id as JSON text -> doc number), [2] chunks hash
 * (doc number -> chunk JSON, written by TypeScript), [3] terms hash (doc number -> "length term
 * term ..."), [4] postings hash (see below), [5] meta hash
 * (doc number -> length-prefixed [id, summaryId, ...messageIds] as JSON texts), [6] stats hash
 * (seq, docs, len, `iseq`, and `space`, the embedder of the session's vectors: `dimensions:id`),
 * [7] vectors hash (doc number -> unit vector as little-endian float32 bytes), [8] summary index
 * (summary id as JSON text -> " doc doc ..."). Lua only splits and joins strings: no cjson.
 *
 * The summary index lets a compaction's delete find a summary's chunks without reading every
 * chunk's metadata. Scripts of earlier versions (seven keys) do not keep it, so it is trusted
 * only while `iseq` equals `seq`: every write of these scripts that found it trusted leaves
 * `iseq = seq`, and an earlier script's add moves `seq` alone. An earlier script's delete leaves
 * entries of chunks that are gone (or, after it dropped the session, of doc numbers used again):
 * an entry is acted on only when the chunk's own metadata names that summary. A delete that
 * finds the index untrusted scans the metadata, as before, and rebuilds it.
 *
 * Postings are kept in blocks, so a write touches a few kB whatever the session's size: a term's
 * entries (" doc:tf:length", doc numbers increasing) are field `term` (the open block, appended
 * to), and, once it reached BLOCK_BYTES, sealed blocks `term k` (k = 1, 2, ...) with the
 * directory field ` term` ("count first first ...": how many entries the sealed blocks hold,
 * then each sealed block's first doc number). No term holds a space, so the three kinds of field
 * never meet. An add appends to the open block (and seals it when full); a delete cuts the entry
 * out of the open block or out of the one sealed block whose range holds the doc. Postings
 * written before blocks (one field per term, any size) are an open block: sealed whole by the
 * next add of that term. A search reads the open blocks and directories first, which give every
 * term's exact document frequency, then the sealed blocks of the terms it scores only
 * (`redis-kb-lexical.ts`).
 *
 * Document frequencies: field `term #` (no term holds a space, and `#` is no block number) counts
 * the term's entries, open and sealed, kept by every add and cut, so a search learns each query
 * term's rarity from one small field instead of reading its open block. They are trusted only
 * while the stats field `dmark` equals `seq:docs`: a session created by these scripts starts
 * trusted, and every write that found it trusted marks it again. A write of an earlier version
 * moves `seq` (add) or `docs` (delete) alone, and a session it wrote before has no mark, so
 * its searches count the open blocks instead (`KB_LEXICAL`), as before.
 *
 * Users (v2): the stats hash also holds `o:<doc>` -> the user of that chunk (absent for a chunk
 * without one) and `n:<userId>` -> how many chunks of that user the session holds (absent at 0).
 * So a search knows whether a session holds only the user's chunks (`n:<user>` = `docs`: nothing
 * to filter) or some (the owners of its candidates are read), and a count by user reads one
 * field per session. Written by the add and every removal (`removeDoc`); a session dropped whole
 * takes them along. Scripts of earlier versions never wrote users: their chunks have none.
 *
 * Removals (v3): every chunk removed (deleted or replaced) is logged in the stats hash: `rn`
 * counts them, `rlog` holds the newest doc numbers (" doc doc ...", at most ~4 kB, oldest cut
 * first). With `seq` (adds) and the epoch, that lets a client that mirrors a session
 * (`redis-kb-mirror.ts`) catch up with what changed since it last looked instead of reading the
 * session again. Scripts of earlier versions remove without logging; the mirror notices by its
 * chunk count no longer being the session's `docs`, and reads the session again.
 */
const PRELUDE = `
local function decodeMeta(s)
  local out = {}
  local at = 1
  while at <= #s do
    local colon = string.find(s, ':', at, true)
    local size = tonumber(string.sub(s, at, colon - 1))
    out[#out + 1] = string.sub(s, colon + 1, colon + size)
    at = colon + size + 1
  end
  return out
end
local function indexTrusted()
  local v = redis.call('HMGET', KEYS[6], 'seq', 'iseq')
  return v[1] == v[2]
end
local function markIndexed()
  local seq = redis.call('HGET', KEYS[6], 'seq')
  if seq then redis.call('HSET', KEYS[6], 'iseq', seq) end
end
local function indexAdd(sid, n)
  local list = redis.call('HGET', KEYS[8], sid)
  redis.call('HSET', KEYS[8], sid, (list or '') .. ' ' .. n)
end
local function indexRemove(sid, n)
  local list = redis.call('HGET', KEYS[8], sid)
  if not list then return end
  local from = string.find(list .. ' ', ' ' .. n .. ' ', 1, true)
  if not from then return end
  local rest = string.sub(list, 1, from - 1) .. string.sub(list, from + #n + 1)
  if rest == '' then redis.call('HDEL', KEYS[8], sid) else redis.call('HSET', KEYS[8], sid, rest) end
end
local BLOCK_BYTES = 8192
local function cutEntry(field, entry)
  local list = redis.call('HGET', KEYS[4], field)
  local from = list and string.find(list, entry, 1, true)
  if not from then return false end
  local to = string.find(list, ' ', from + 1, true)
  local rest = string.sub(list, 1, from - 1)
  if to then rest = rest .. string.sub(list, to) end
  if rest == '' then redis.call('HDEL', KEYS[4], field) else redis.call('HSET', KEYS[4], field, rest) end
  return true
end
local function countDown(term)
  if redis.call('HINCRBY', KEYS[4], term .. ' #', -1) <= 0 then redis.call('HDEL', KEYS[4], term .. ' #') end
end
local function removePosting(term, n)
  local entry = ' ' .. n .. ':'
  if cutEntry(term, entry) then return countDown(term) end
  local dir = redis.call('HGET', KEYS[4], ' ' .. term)
  if not dir then return end
  local doc, k, count, firsts = tonumber(n), 0, nil, {}
  for number in string.gmatch(dir, '%d+') do
    if count == nil then
      count = tonumber(number)
    else
      firsts[#firsts + 1] = number
      if tonumber(number) <= doc then k = #firsts end
    end
  end
  if k > 0 and cutEntry(term .. ' ' .. k, entry) then
    redis.call('HSET', KEYS[4], ' ' .. term, (count - 1) .. ' ' .. table.concat(firsts, ' '))
    countDown(term)
  end
end
local function addPosting(term, entry)
  local open = redis.call('HGET', KEYS[4], term)
  if open and #open >= BLOCK_BYTES then
    local dir = redis.call('HGET', KEYS[4], ' ' .. term) or '0'
    local blocks = 0
    for _ in string.gmatch(dir, '%d+') do blocks = blocks + 1 end
    local count = tonumber(string.match(dir, '%d+')) + select(2, string.gsub(open, ' ', ' '))
    local first = string.match(open, '^ (%d+):')
    local rest = string.match(dir, '^%d+(.*)$')
    redis.call('HSET', KEYS[4], term .. ' ' .. blocks, open, ' ' .. term, count .. rest .. ' ' .. first)
    open = nil
  end
  if open then redis.call('HSET', KEYS[4], term, open .. entry) else redis.call('HSET', KEYS[4], term, entry) end
  redis.call('HINCRBY', KEYS[4], term .. ' #', 1)
end
local function countsTrusted()
  local v = redis.call('HMGET', KEYS[6], 'seq', 'docs', 'dmark')
  return (not v[1]) or v[3] == v[1] .. ':' .. (v[2] or '0')
end
local function markCounted(trusted)
  if not trusted then return end
  local v = redis.call('HMGET', KEYS[6], 'seq', 'docs')
  if v[1] then redis.call('HSET', KEYS[6], 'dmark', v[1] .. ':' .. (v[2] or '0')) end
end
-- The removal log (see "Removals" above): the newest doc numbers removed, and how many ever were.
local LOG_BYTES = 4096
local function logRemoval(n)
  local v = redis.call('HMGET', KEYS[6], 'rlog', 'rn')
  local log = (v[1] or '') .. ' ' .. n
  if #log > LOG_BYTES then log = string.sub(log, string.find(log, ' ', #log - LOG_BYTES / 2, true)) end
  redis.call('HSET', KEYS[6], 'rlog', log, 'rn', (tonumber(v[2]) or 0) + 1)
end
local function removeDoc(n)
  local w = redis.call('HGET', KEYS[3], n)
  if not w then return 0 end
  local len = nil
  for term in string.gmatch(w, '%S+') do
    if len == nil then len = tonumber(term) else removePosting(term, n) end
  end
  local meta = redis.call('HGET', KEYS[5], n)
  if meta then
    local sid = decodeMeta(meta)[2]
    if sid ~= nil and sid ~= '' then indexRemove(sid, n) end
  end
  local owner = redis.call('HGET', KEYS[6], 'o:' .. n)
  if owner then
    redis.call('HDEL', KEYS[6], 'o:' .. n)
    if redis.call('HINCRBY', KEYS[6], 'n:' .. owner, -1) <= 0 then
      redis.call('HDEL', KEYS[6], 'n:' .. owner)
    end
  end
  redis.call('HDEL', KEYS[2], n)
  redis.call('HDEL', KEYS[3], n)
  redis.call('HDEL', KEYS[5], n)
  redis.call('HDEL', KEYS[7], n)
  redis.call('HINCRBY', KEYS[6], 'docs', -1)
  redis.call('HINCRBY', KEYS[6], 'len', -(len or 0))
  logRemoval(n)
  return 1
end
local function dropIfEmpty()
  if redis.call('HLEN', KEYS[1]) == 0 then
    for i = 1, #KEYS do redis.call('DEL', KEYS[i]) end
    return true
  end
  return false
end
`;

/**
 * Adds chunks. ARGV: the space of the vectors (`dimensions:id`, or '' without an embedder),
 * count, '1' when the users' sets already hold this session (see `redis-kb-users.ts`), the user
 * of each chunk ('' for none), then per chunk: id (JSON text), chunk JSON, meta, vector ('' for
 * none), length, number of distinct terms, then term, tf pairs (`addArguments`). A chunk whose
 * id is present replaces it. A session whose vectors are of another space (or any, when the
 * batch has none) refuses the whole batch with an error reply `MEMSPACE <space>`, before writing
 * anything. A batch that brings the first chunk of a user to the session returns
 * {'index', users...} and writes nothing unless the flag is '1'; otherwise {'ok', epoch, count,
 * each chunk's doc number in order..., those users...} (epoch '' when the session has none), so
 * the client can keep the chunks it wrote in its chunk cache.
 * A summary's chunks go into the summary index. An optional last argument, after the chunks,
 * names the session's incarnation: kept as `epoch` in the stats hash when it has none (see
 * `redis-kb-chunk-cache.ts`).
 */
export const KB_ADD = kbScript(
  'kbAdd',
  `${PRELUDE}
local space = ARGV[1]
local bound = redis.call('HGET', KEYS[6], 'space')
if bound and bound ~= space then return redis.error_reply('MEMSPACE ' .. bound) end
local count = tonumber(ARGV[2])
local fresh, seen = {}, {}
for c = 1, count do
  local user = ARGV[3 + c]
  if user ~= '' and not seen[user] then
    seen[user] = true
    if not redis.call('HGET', KEYS[6], 'n:' .. user) then fresh[#fresh + 1] = user end
  end
end
if #fresh > 0 and ARGV[3] ~= '1' then return {'index', unpack(fresh)} end
local trusted = indexTrusted()
local counted = countsTrusted()
if (not bound) and space ~= '' then redis.call('HSET', KEYS[6], 'space', space) end
local at = 4 + count
local n
local docs = {}
for c = 1, count do
  local user = ARGV[3 + c]
  local id, json, meta, vector = ARGV[at], ARGV[at + 1], ARGV[at + 2], ARGV[at + 3]
  local len, nterms = tonumber(ARGV[at + 4]), tonumber(ARGV[at + 5])
  at = at + 6
  local old = redis.call('HGET', KEYS[1], id)
  if old then removeDoc(old) end
  n = tostring(redis.call('HINCRBY', KEYS[6], 'seq', 1))
  docs[#docs + 1] = n
  redis.call('HSET', KEYS[1], id, n)
  redis.call('HSET', KEYS[2], n, json)
  redis.call('HSET', KEYS[5], n, meta)
  if user ~= '' then
    redis.call('HSET', KEYS[6], 'o:' .. n, user)
    redis.call('HINCRBY', KEYS[6], 'n:' .. user, 1)
  end
  local sid = decodeMeta(meta)[2]
  if sid ~= nil and sid ~= '' then indexAdd(sid, n) end
  if vector ~= '' then redis.call('HSET', KEYS[7], n, vector) end
  local terms = { tostring(len) }
  for t = 1, nterms do
    local term, tf = ARGV[at], ARGV[at + 1]
    at = at + 2
    terms[#terms + 1] = term
    addPosting(term, ' ' .. n .. ':' .. tf .. ':' .. len)
  end
  redis.call('HSET', KEYS[3], n, table.concat(terms, ' '))
  redis.call('HINCRBY', KEYS[6], 'docs', 1)
  redis.call('HINCRBY', KEYS[6], 'len', len)
end
if trusted and n then redis.call('HSET', KEYS[6], 'iseq', n) end
markCounted(counted)
if ARGV[at] and ARGV[at] ~= '' then redis.call('HSETNX', KEYS[6], 'epoch', ARGV[at]) end
local reply = {'ok', redis.call('HGET', KEYS[6], 'epoch') or '', tostring(#docs)}
for _, d in ipairs(docs) do reply[#reply + 1] = d end
for _, u in ipairs(fresh) do reply[#reply + 1] = u end
return reply
`,
);

/**
 * Deletes chunks. ARGV[1] 'all' (every chunk), 'user' (every chunk of the user ARGV[2]) or
 * 'match': then the number of message ids, the message ids (JSON texts), the number of summary
 * ids, the summary ids, and optionally a user (only that user's chunks among those). Returns how
 * many. Summary ids alone (a compaction's delete) are looked up in the summary index when it is
 * trusted; otherwise every chunk's metadata is read, and the index rebuilt from it.
 */
export const KB_DELETE = kbScript(
  'kbDelete',
  `${PRELUDE}
if ARGV[1] == 'all' then
  local n = redis.call('HLEN', KEYS[1])
  for i = 1, #KEYS do redis.call('DEL', KEYS[i]) end
  return n
end
local counted = countsTrusted()
if ARGV[1] == 'user' then
  local v = redis.call('HMGET', KEYS[6], 'n:' .. ARGV[2], 'docs')
  local mine = tonumber(v[1]) or 0
  if mine == 0 then return 0 end
  if mine == tonumber(v[2]) and mine == redis.call('HLEN', KEYS[1]) then
    for i = 1, #KEYS do redis.call('DEL', KEYS[i]) end
    return mine
  end
  local all = redis.call('HGETALL', KEYS[6])
  local doomed = {}
  for i = 1, #all, 2 do
    if all[i + 1] == ARGV[2] and string.sub(all[i], 1, 2) == 'o:' then
      doomed[#doomed + 1] = string.sub(all[i], 3)
    end
  end
  local removed = 0
  for _, n in ipairs(doomed) do
    local meta = redis.call('HGET', KEYS[5], n)
    if removeDoc(n) == 1 then
      if meta then redis.call('HDEL', KEYS[1], decodeMeta(meta)[1]) end
      removed = removed + 1
    end
  end
  if not dropIfEmpty() then markCounted(counted) end
  return removed
end
local messages, summaries = {}, {}
local nm = tonumber(ARGV[2])
for i = 1, nm do messages[ARGV[2 + i]] = true end
local ns = tonumber(ARGV[3 + nm])
for i = 1, ns do summaries[ARGV[3 + nm + i]] = true end
local only = ARGV[4 + nm + ns]
local function owned(n)
  return only == nil or redis.call('HGET', KEYS[6], 'o:' .. n) == only
end
local removed = 0
if nm == 0 and indexTrusted() then
  for sid in pairs(summaries) do
    local list = redis.call('HGET', KEYS[8], sid)
    if list then
      for n in string.gmatch(list, '%S+') do
        local meta = redis.call('HGET', KEYS[5], n)
        local fields = meta and decodeMeta(meta)
        if fields and fields[2] == sid and owned(n) and removeDoc(n) == 1 then
          redis.call('HDEL', KEYS[1], fields[1])
          removed = removed + 1
        end
      end
    end
  end
  if not dropIfEmpty() then markCounted(counted) end
  return removed
end
local all = redis.call('HGETALL', KEYS[5])
local doomed, index = {}, {}
for i = 1, #all, 2 do
  local fields = decodeMeta(all[i + 1])
  local summaryId = fields[2]
  local hit = summaryId ~= '' and (summaries[summaryId] or messages[summaryId])
  if not hit then
    for j = 3, #fields do
      if messages[fields[j]] then hit = true break end
    end
  end
  if hit and owned(all[i]) then
    doomed[#doomed + 1] = { all[i], fields[1] }
  elseif summaryId ~= '' then
    index[summaryId] = (index[summaryId] or '') .. ' ' .. all[i]
  end
end
for _, d in ipairs(doomed) do
  removeDoc(d[1])
  redis.call('HDEL', KEYS[1], d[2])
end
if not dropIfEmpty() then
  redis.call('DEL', KEYS[8])
  for sid, list in pairs(index) do redis.call('HSET', KEYS[8], sid, list) end
  markIndexed()
  markCounted(counted)
end
return #doomed
`,
);

/**
 * Runs a knowledge-base script (EVALSHA, loading it on NOSCRIPT). Unlike the store's
 * `runScript`, arguments may be binary (packed vectors).
 */
export async function runKbScript(
  client: Redis | Cluster,
  script: LuaScript,
  keys: readonly string[],
  args: readonly (string | number | Buffer)[],
): Promise<unknown> {
  const rest = [keys.length, ...keys, ...args];
  try {
    return await client.call('EVALSHA', [script.sha, ...rest]);
  } catch (error) {
    if (error instanceof Error && error.message.startsWith('NOSCRIPT')) {
      return await client.call('EVAL', [script.lua, ...rest]);
    }
    throw error;
  }
}
