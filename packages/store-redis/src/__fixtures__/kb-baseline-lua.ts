import { createHash } from 'node:crypto';
import type { LuaScript } from '../lua-scripts.ts';

/**
 * The knowledge-base scripts as @mem/store-redis ran them before the summary index (seven keys,
 * delete metadata scanned on every delete, postings rewritten with `gsub`): the writer of the
 * compatibility tests (a session they wrote, or change in between, must stay right under the
 * current scripts). Same keys (the first seven), ARGV and replies. Kept verbatim; do not tidy.
 */
function script(name: string, lua: string): LuaScript {
  return { name, lua, sha: createHash('sha1').update(lua).digest('hex') };
}

const PRELUDE = `
local function removeDoc(n)
  local w = redis.call('HGET', KEYS[3], n)
  if not w then return 0 end
  local len = nil
  local pattern = ' ' .. n .. ':%d+:%d+'
  for term in string.gmatch(w, '%S+') do
    if len == nil then
      len = tonumber(term)
    else
      local list = redis.call('HGET', KEYS[4], term)
      if list then
        local rest = string.gsub(list, pattern, '')
        if rest == '' then redis.call('HDEL', KEYS[4], term) else redis.call('HSET', KEYS[4], term, rest) end
      end
    end
  end
  redis.call('HDEL', KEYS[2], n)
  redis.call('HDEL', KEYS[3], n)
  redis.call('HDEL', KEYS[5], n)
  redis.call('HDEL', KEYS[7], n)
  redis.call('HINCRBY', KEYS[6], 'docs', -1)
  redis.call('HINCRBY', KEYS[6], 'len', -(len or 0))
  return 1
end
local function dropIfEmpty()
  if redis.call('HLEN', KEYS[1]) == 0 then
    for i = 1, #KEYS do redis.call('DEL', KEYS[i]) end
  end
end
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
`;

/**
 * Adds chunks. ARGV: the space of the vectors (`dimensions:id`, or '' without an embedder),
 * count, then per chunk: id (JSON text), chunk JSON, meta, vector ('' for none), length, number
 * of distinct terms, then term, tf pairs. A chunk whose id is present replaces it. A session whose
 * vectors are of another space (or any, when the batch has none) refuses the whole batch with
 * an error reply `MEMSPACE <space>`, before writing anything.
 */
export const KB_ADD_BASELINE = script(
  'kbAddBaseline',
  `${PRELUDE}
local space = ARGV[1]
local bound = redis.call('HGET', KEYS[6], 'space')
if bound and bound ~= space then return redis.error_reply('MEMSPACE ' .. bound) end
if (not bound) and space ~= '' then redis.call('HSET', KEYS[6], 'space', space) end
local count = tonumber(ARGV[2])
local at = 3
for c = 1, count do
  local id, json, meta, vector = ARGV[at], ARGV[at + 1], ARGV[at + 2], ARGV[at + 3]
  local len, nterms = tonumber(ARGV[at + 4]), tonumber(ARGV[at + 5])
  at = at + 6
  local old = redis.call('HGET', KEYS[1], id)
  if old then removeDoc(old) end
  local n = tostring(redis.call('HINCRBY', KEYS[6], 'seq', 1))
  redis.call('HSET', KEYS[1], id, n)
  redis.call('HSET', KEYS[2], n, json)
  redis.call('HSET', KEYS[5], n, meta)
  if vector ~= '' then redis.call('HSET', KEYS[7], n, vector) end
  local terms = { tostring(len) }
  for t = 1, nterms do
    local term, tf = ARGV[at], ARGV[at + 1]
    at = at + 2
    terms[#terms + 1] = term
    local entry = ' ' .. n .. ':' .. tf .. ':' .. len
    local list = redis.call('HGET', KEYS[4], term)
    if list then redis.call('HSET', KEYS[4], term, list .. entry) else redis.call('HSET', KEYS[4], term, entry) end
  end
  redis.call('HSET', KEYS[3], n, table.concat(terms, ' '))
  redis.call('HINCRBY', KEYS[6], 'docs', 1)
  redis.call('HINCRBY', KEYS[6], 'len', len)
end
return count
`,
);

/**
 * Deletes chunks. ARGV[1] 'all' (every chunk) or 'match': then the number of message ids, the
 * message ids (JSON texts), the number of summary ids, the summary ids. Returns how many.
 */
export const KB_DELETE_BASELINE = script(
  'kbDeleteBaseline',
  `${PRELUDE}
if ARGV[1] == 'all' then
  local n = redis.call('HLEN', KEYS[1])
  for i = 1, #KEYS do redis.call('DEL', KEYS[i]) end
  return n
end
local messages, summaries = {}, {}
local nm = tonumber(ARGV[2])
for i = 1, nm do messages[ARGV[2 + i]] = true end
local ns = tonumber(ARGV[3 + nm])
for i = 1, ns do summaries[ARGV[3 + nm + i]] = true end
local all = redis.call('HGETALL', KEYS[5])
local doomed = {}
for i = 1, #all, 2 do
  local fields = decodeMeta(all[i + 1])
  local summaryId = fields[2]
  local hit = summaryId ~= '' and (summaries[summaryId] or messages[summaryId])
  if not hit then
    for j = 3, #fields do
      if messages[fields[j]] then hit = true break end
    end
  end
  if hit then doomed[#doomed + 1] = { all[i], fields[1] } end
end
for _, d in ipairs(doomed) do
  removeDoc(d[1])
  redis.call('HDEL', KEYS[1], d[2])
end
dropIfEmpty()
return #doomed
`,
);
