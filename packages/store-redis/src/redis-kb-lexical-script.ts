import type { Cluster, Redis } from 'ioredis';
import { kbScript } from './redis-kb-scripts.ts';

/**
 * The read side of lexical search, one script on one session's keys (one slot, see `kbKeys`),
 * so a search of one session is one round trip for everything but the chunks. It only reads,
 * splits and joins strings: the scores are computed by the client (`redis-kb-lexical.ts`), in
 * the same float arithmetic as before, so the rankings do not move.
 *
 * ARGV[1] is the mode. The query terms follow, distinct and sorted by the client (so "equal
 * rarity: the smaller term first" is "the earlier term first"); in `sync` and `read` each term is
 * followed by its `base`: `epoch:seq:docs`, the version of the session at which the client holds
 * the term's postings (`redis-kb-postings-cache.ts`), or '' when it holds none.
 * - `sync:<max>`: returns `{docs, len, dfs, epoch, seq, picked, tails, postings}`: the session's
 *   chunk count and total length, each term's document frequency (0 when absent), the session's
 *   incarnation (`epoch`, '' when it has none: see `redis-kb-chunk-cache.ts`), its `seq`, the
 *   positions (1-based, among the terms) of the `max` rarest terms that occur (document
 *   frequency ascending, then position), and for each picked term its postings: when its base
 *   is of this epoch and no chunk was removed since (`docs` grew by as much as `seq`), only the
 *   entries numbered above the base's `seq` (`tails` 1); otherwise the whole postings (`tails`
 *   0: sealed blocks oldest first, then the open block, `" doc:tf:length ..."`).
 * - `df`: `{docs, len, dfs, epoch}` only (a search of several sessions sums them first).
 * - `read`: `{docs, seq, epoch, tails, postings}` of every term given (the terms a search of
 *   several sessions picked), as in `sync`.
 *
 * Document frequencies come from the `term #` counters when the session's `dmark` says they are
 * exact (see `redis-kb-scripts.ts`), else from counting each open block's entries plus its
 * directory's count. Work: O(query terms) small fields (or open blocks of at most ~8 kB when
 * counting), then the picked terms' postings: whole, or only their newest entries (found by
 * bisecting the newest block), which the reply carries whatever their size; no other field of
 * the session is read.
 */
export const KB_LEXICAL = kbScript(
  'kbLexical',
  `
local mode = ARGV[1]
local paired = mode ~= 'df'
local terms, bases = {}, {}
if paired then
  for i = 2, #ARGV, 2 do terms[#terms + 1] = ARGV[i]; bases[#terms] = ARGV[i + 1] end
else
  for i = 2, #ARGV do terms[#terms + 1] = ARGV[i] end
end
local n = #terms
local st = redis.call('HMGET', KEYS[6], 'docs', 'len', 'seq', 'dmark', 'epoch')
local docs, len, seq, epoch = st[1] or '0', st[2] or '0', st[3] or '0', st[5] or ''
-- HMGET in slices, so a query of thousands of terms stays within unpack's limit.
local function hmget(key, fields)
  local out = {}
  for from = 1, #fields, 1000 do
    local part = redis.call('HMGET', key, unpack(fields, from, math.min(from + 999, #fields)))
    for i = 1, #part do out[from + i - 1] = part[i] end
  end
  return out
end
-- The seq above which a term's entries are new to the client, or nil to send them all.
local function sinceOf(base)
  if epoch == '' or not base or base == '' then return nil end
  local e, s, d = string.match(base, '^([^:]+):(%d+):(%d+)$')
  if e ~= epoch then return nil end
  s, d = tonumber(s), tonumber(d)
  local now = tonumber(seq)
  if s > now or tonumber(docs) - d ~= now - s then return nil end
  return s
end
-- The first position of block (" doc:tf:length ...", docs ascending) whose entry is numbered
-- above since (#block + 1 when none is), by bisection over the entries' leading spaces.
local function firstAfter(block, since)
  local lo, hi = 1, #block + 1
  while lo < hi do
    local mid = string.find(block, ' ', math.floor((lo + hi) / 2), true)
    if not mid or mid >= hi then mid = lo end
    if (tonumber(string.match(block, '^ (%d+)', mid)) or 0) > since then
      hi = mid
    else
      lo = string.find(block, ' ', mid + 1, true) or (#block + 1)
    end
  end
  return lo
end
-- A term's entries numbered above since: the open block's, and older blocks' only while the
-- newer ones were new from their first entry.
local function tailOf(term, open, dir, since)
  local parts = {}
  local k = 0
  if dir then k = select(2, string.gsub(dir, '%d+', '')) - 1 end
  local block = open
  while true do
    if block then
      local from = firstAfter(block, since)
      if from <= #block then table.insert(parts, 1, string.sub(block, from)) end
      if from > 1 then break end
    end
    if k <= 0 then break end
    block = redis.call('HGET', KEYS[4], term .. ' ' .. k)
    k = k - 1
  end
  return table.concat(parts)
end
local function postingsOf(list, baseOfTerm)
  local out, tails = {}, {}
  if #list == 0 then return out, tails end
  local f = {}
  for i, term in ipairs(list) do f[2 * i - 1] = term; f[2 * i] = ' ' .. term end
  local heads = hmget(KEYS[4], f)
  for i, term in ipairs(list) do
    local since = sinceOf(baseOfTerm[i])
    local dir = heads[2 * i]
    if since then
      out[i] = tailOf(term, heads[2 * i - 1], dir, since)
      tails[i] = 1
    else
      local parts = {}
      if dir then
        local fields, k = {}, 0
        for _ in string.gmatch(dir, '%d+') do
          if k > 0 then fields[#fields + 1] = term .. ' ' .. k end
          k = k + 1
        end
        if #fields > 0 then
          local blocks = hmget(KEYS[4], fields)
          for j = 1, #fields do
            if blocks[j] then parts[#parts + 1] = blocks[j] end
          end
        end
      end
      if heads[2 * i - 1] then parts[#parts + 1] = heads[2 * i - 1] end
      out[i] = table.concat(parts)
      tails[i] = 0
    end
  end
  return out, tails
end
if mode == 'read' then
  local postings, tails = postingsOf(terms, bases)
  return {docs, seq, epoch, tails, postings}
end
local dfs = {}
if n == 0 then return {docs, len, dfs, epoch} end
if st[3] and st[4] == st[3] .. ':' .. docs then
  local f = {}
  for i = 1, n do f[i] = terms[i] .. ' #' end
  local counts = hmget(KEYS[4], f)
  for i = 1, n do dfs[i] = tonumber(counts[i]) or 0 end
else
  local f = {}
  for i = 1, n do f[2 * i - 1] = terms[i]; f[2 * i] = ' ' .. terms[i] end
  local heads = hmget(KEYS[4], f)
  for i = 1, n do
    local count = 0
    if heads[2 * i - 1] then count = select(2, string.gsub(heads[2 * i - 1], ' ', '')) end
    local dir = heads[2 * i]
    if dir and string.find(dir, '%d+%s+%d') then count = count + tonumber(string.match(dir, '%d+')) end
    dfs[i] = count
  end
end
if mode == 'df' then return {docs, len, dfs, epoch} end
local max = tonumber(string.match(mode, '^sync:(%d+)$'))
local order = {}
for i = 1, n do
  if dfs[i] > 0 then order[#order + 1] = i end
end
table.sort(order, function(a, b)
  if dfs[a] ~= dfs[b] then return dfs[a] < dfs[b] end
  return a < b
end)
local picked, list, listBases = {}, {}, {}
for i = 1, math.min(max, #order) do
  picked[i] = order[i]
  list[i] = terms[order[i]]
  listBases[i] = bases[order[i]]
end
local postings, tails = postingsOf(list, listBases)
return {docs, len, dfs, epoch, seq, picked, tails, postings}
`,
);

/**
 * Runs `KB_LEXICAL` (EVALSHA, loading it on NOSCRIPT) with its strings replied as Buffers: the
 * postings are ASCII, and scanning bytes is several times faster than scanning a decoded string.
 */
export async function runLexicalScript(
  client: Redis | Cluster,
  keys: readonly string[],
  args: readonly string[],
): Promise<unknown> {
  const rest = [keys.length, ...keys, ...args];
  try {
    return await client.callBuffer('EVALSHA', [KB_LEXICAL.sha, ...rest]);
  } catch (error) {
    if (error instanceof Error && error.message.startsWith('NOSCRIPT')) {
      return await client.callBuffer('EVAL', [KB_LEXICAL.lua, ...rest]);
    }
    throw error;
  }
}
