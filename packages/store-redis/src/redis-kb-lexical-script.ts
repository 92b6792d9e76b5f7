import type { Cluster, Redis } from 'ioredis';
import { kbScript } from './redis-kb-scripts.ts';

/**
 * The read side of lexical search, one script on one session's keys (one slot, see `kbKeys`),
 * so a search of one session is one round trip for everything but the chunks. It only reads,
 * splits and joins strings: the scores are computed by the client (`redis-kb-lexical.ts`), in
 * the same float arithmetic as before, so the rankings do not move.
 *
 * ARGV[1] is the mode, then the distinct query terms (the client sorts them, so "equal rarity:
 * the smaller term first" is "the earlier argument first"):
 * - `pick:<max>`: returns `{docs, len, dfs, epoch, picked, postings}`: the session's chunk count
 *   and total length, each term's document frequency (0 when absent), the session's incarnation
 *   (`epoch`, '' when it has none: see `redis-kb-chunk-cache.ts`), the argument positions
 *   (1-based) of the `max` rarest terms that occur (document frequency ascending, then
 *   position), and each picked term's whole postings (sealed blocks oldest first, then the open
 *   block, `" doc:tf:length ..."`).
 * - `df`: `{docs, len, dfs, epoch}` only (a search of several sessions sums them first).
 * - `read`: `{postings}` of every term given (the terms a search of several sessions picked).
 *
 * Document frequencies come from the `term #` counters when the session's `dmark` says they are
 * exact (see `redis-kb-scripts.ts`), else from counting each open block's entries plus its
 * directory's count. Work: O(query terms) small fields (or open blocks of at most ~8 kB when
 * counting), then the picked terms' postings, which the reply carries whatever their size; no
 * other field of the session is read.
 */
export const KB_LEXICAL = kbScript(
  'kbLexical',
  `
local mode = ARGV[1]
local n = #ARGV - 1
-- HMGET in slices, so a query of thousands of terms stays within unpack's limit.
local function hmget(key, fields)
  local out = {}
  for from = 1, #fields, 1000 do
    local part = redis.call('HMGET', key, unpack(fields, from, math.min(from + 999, #fields)))
    for i = 1, #part do out[from + i - 1] = part[i] end
  end
  return out
end
local function postingsOf(terms)
  if #terms == 0 then return {} end
  local f = {}
  for i, term in ipairs(terms) do f[2 * i - 1] = term; f[2 * i] = ' ' .. term end
  local heads = hmget(KEYS[4], f)
  local out = {}
  for i, term in ipairs(terms) do
    local dir = heads[2 * i]
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
  end
  return out
end
if mode == 'read' then
  local terms = {}
  for i = 1, n do terms[i] = ARGV[1 + i] end
  return postingsOf(terms)
end
local st = redis.call('HMGET', KEYS[6], 'docs', 'len', 'seq', 'dmark', 'epoch')
local docs, len, epoch = st[1] or '0', st[2] or '0', st[5] or ''
local dfs = {}
if n == 0 then return {docs, len, dfs, epoch} end
if st[3] and st[4] == st[3] .. ':' .. docs then
  local f = {}
  for i = 1, n do f[i] = ARGV[1 + i] .. ' #' end
  local counts = hmget(KEYS[4], f)
  for i = 1, n do dfs[i] = tonumber(counts[i]) or 0 end
else
  local f = {}
  for i = 1, n do f[2 * i - 1] = ARGV[1 + i]; f[2 * i] = ' ' .. ARGV[1 + i] end
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
local max = tonumber(string.match(mode, '^pick:(%d+)$'))
local order = {}
for i = 1, n do
  if dfs[i] > 0 then order[#order + 1] = i end
end
table.sort(order, function(a, b)
  if dfs[a] ~= dfs[b] then return dfs[a] < dfs[b] end
  return a < b
end)
local picked, terms = {}, {}
for i = 1, math.min(max, #order) do
  picked[i] = order[i]
  terms[i] = ARGV[1 + order[i]]
end
return {docs, len, dfs, epoch, picked, postingsOf(terms)}
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
