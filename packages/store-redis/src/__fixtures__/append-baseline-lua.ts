import { IDEMPOTENCY_WINDOW } from '../encode-stored.ts';

/**
 * The append script as @mem/store-redis ran it before the server-time cut (two HSETs, every
 * `i:` field holding its seq, the epoch written back): the baseline of the append bench and the
 * writer of the compatibility test (a session it wrote must be read and appended by the current
 * script). Same ARGV and reply as the current script. Kept verbatim; do not tidy.
 */
const TRIM_SLACK = 128;

export const APPEND_BASELINE_LUA = `
local ttl, n = tonumber(ARGV[2]), tonumber(ARGV[6])
local v
if n <= 1000 then
  v = redis.call('HMGET', KEYS[1], 'state', 'version', 'epoch', 'lastSeq', 'count', 'tokens', 'kn',
    'ko', ARGV[3], unpack(ARGV, 7, 6 + n))
else
  v = redis.call('HMGET', KEYS[1], 'state', 'version', 'epoch', 'lastSeq', 'count', 'tokens', 'kn',
    'ko', ARGV[3])
  for c = 7, 6 + n, 1000 do
    local part = redis.call('HMGET', KEYS[1], unpack(ARGV, c, math.min(6 + n, c + 999)))
    for j = 1, #part do v[c + 2 + j] = part[j] end
  end
end
local version, epoch, lastSeq = tonumber(v[2]) or 0, tonumber(v[3]) or 0, tonumber(v[4]) or 0
local count, total, kn, ko = 0, 0, 0, 0
if v[1] == 'live' then
  if v[9] then return {'dup', v[9]} end
  for i = 1, n do
    if v[9 + i] then return {'id', i - 1} end
  end
  count, total = tonumber(v[5]) or 0, tonumber(v[6]) or 0
  kn, ko = tonumber(v[7]) or 0, tonumber(v[8]) or 0
else
  redis.call('DEL', unpack(KEYS, 2))
  redis.call('HSET', KEYS[1], 'state', 'live', 'createdAt', ARGV[1])
end
version = version + 1
kn = kn + 1
ko = ko + 1
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
local z, h = {}, {}
for i = 1, n do
  z[2 * i - 1] = lastSeq + i
  z[2 * i] = ARGV[6 + n + i]
  h[2 * i - 1] = ARGV[6 + i]
  h[2 * i] = lastSeq + i
end
if n <= 500 then
  redis.call('ZADD', KEYS[2], unpack(z))
  redis.call('HSET', KEYS[1], unpack(h))
else
  for c = 1, 2 * n, 1000 do
    redis.call('ZADD', KEYS[2], unpack(z, c, math.min(2 * n, c + 999)))
    redis.call('HSET', KEYS[1], unpack(h, c, math.min(2 * n, c + 999)))
  end
end
local rec = version .. ':' .. epoch .. ':' .. (lastSeq + 1) .. ':' .. (lastSeq + n)
redis.call('HSET', KEYS[1], 'version', version, 'epoch', epoch, 'lastSeq', lastSeq + n,
  'count', count + n, 'tokens', total + tonumber(ARGV[5]), 'updatedAt', ARGV[1], 'kn', kn,
  'ko', ko, ARGV[3], rec, 'o:' .. ko, ARGV[4])
if ttl > 0 then
  for i = 1, #KEYS do redis.call('PEXPIRE', KEYS[i], ttl) end
elseif redis.call('PTTL', KEYS[1]) >= 0 then
  for i = 1, #KEYS do redis.call('PERSIST', KEYS[i]) end
end
return {'ok', rec}
`;
