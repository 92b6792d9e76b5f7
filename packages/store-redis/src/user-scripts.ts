import { script } from './lua-scripts.ts';

/*
 * Scripts of users (Store v3). A session's binding lives in its own meta hash (field `user`, see
 * lua-scripts.ts); the user's index and facts live under the user's hash tag (see `userKeys`),
 * which is another slot, so no script touches both: `redis-user-index.ts` orders the steps.
 */

/**
 * Erases a session if, and only if, it is live and bound to the user ARGV[1]; takes the five keys
 * of the session. Returns {1, messages} (active messages, summaries included, plus archived
 * originals) when it erased it, {0, 0} otherwise (another user's, unbound, cleared, gone). Every
 * key of the session goes, the tombstone a `clear` leaves included: nothing of the user remains.
 */
export const FORGET_SESSION = script(
  'forgetSession',
  `
local v = redis.call('HMGET', KEYS[1], 'state', 'user')
if v[1] ~= 'live' or v[2] ~= ARGV[1] then return {0, 0} end
local messages = redis.call('ZCARD', KEYS[2])
local archives = redis.call('HVALS', KEYS[5])
for i = 1, #archives do messages = messages + #cjson.decode(archives[i]) end
redis.call('DEL', unpack(KEYS))
return {1, messages}
`,
);

/**
 * Compare-and-swap of a user's facts (KEYS[1], the facts hash). ARGV: the expected version (as
 * text), the facts as a JSON array ('' for none), their number. Versions are compared as text
 * and grown with HINCRBY, so Lua never formats a large number. An empty write removes the facts
 * and keeps the version, so a writer that read before it still conflicts. Returns
 * {'ok', version} or {'conflict', version}.
 */
export const WRITE_FACTS = script(
  'writeFacts',
  `
local current = redis.call('HGET', KEYS[1], 'version') or '0'
if current ~= ARGV[1] then return {'conflict', current} end
local version = redis.call('HINCRBY', KEYS[1], 'version', 1)
if ARGV[2] == '' then
  redis.call('HDEL', KEYS[1], 'facts', 'n')
else
  redis.call('HSET', KEYS[1], 'facts', ARGV[2], 'n', ARGV[3])
end
return {'ok', version}
`,
);

/** Removes a user's facts key (KEYS[1]) whole, version included; returns how many facts it held. */
export const FORGET_FACTS = script(
  'forgetFacts',
  `
local n = tonumber(redis.call('HGET', KEYS[1], 'n')) or 0
redis.call('DEL', KEYS[1])
return n
`,
);
