import { MemStoreError } from '@mem/core';
import {
  parseUserFactsWrite,
  type UserFact,
  type UserFacts,
  userFactsConflictError,
  type WriteUserFactsResult,
} from '@mem/core/backend';
import { runScript } from './redis-connection.ts';
import type { UserContext } from './redis-user-index.ts';
import { userKeys } from './session-keys.ts';
import { WRITE_FACTS } from './user-scripts.ts';

/*
 * A user's facts: one hash under the user's hash tag (`userKeys(...).facts`) with `version`,
 * `facts` (the JSON array as written) and `n` (how many). Written whole with compare-and-swap
 * (`WRITE_FACTS`); read back through core's parser, so a corrupt document is an error, never
 * returned. No expiry: a store's `ttlMs` is about sessions.
 */

/** The user's facts; version 0 and none when nothing is stored. */
export async function readUserFacts(ctx: UserContext, userId: string): Promise<UserFacts> {
  const [version, text] = await ctx.client.hmget(
    userKeys(ctx.prefix, ctx.namespace, userId).facts,
    'version',
    'facts',
  );
  const current = typeof version === 'string' ? Number(version) : 0;
  if (!Number.isSafeInteger(current) || current < 0) throw corrupt(userId);
  if (typeof text !== 'string') return { userId, version: current, facts: [] };
  let facts: UserFact[];
  try {
    facts = parseUserFactsWrite({ expectedVersion: current, facts: JSON.parse(text) }).facts;
  } catch (error) {
    throw corrupt(userId, error);
  }
  return { userId, version: current, facts };
}

/** Replaces the user's facts if they are still at `expectedVersion` (checked input: see core). */
export async function writeUserFactsOnRedis(
  ctx: UserContext,
  userId: string,
  input: unknown,
): Promise<WriteUserFactsResult> {
  const { expectedVersion, facts } = parseUserFactsWrite(input);
  const key = userKeys(ctx.prefix, ctx.namespace, userId).facts;
  const text = facts.length === 0 ? '' : JSON.stringify(facts);
  const [status, version] = (await runScript(
    ctx.client,
    WRITE_FACTS,
    [key],
    [String(expectedVersion), text, facts.length],
  )) as [string, string | number];
  if (status === 'conflict') {
    throw userFactsConflictError(userId, expectedVersion, Number(version));
  }
  return { version: Number(version) };
}

function corrupt(userId: string, cause?: unknown): MemStoreError {
  return new MemStoreError(
    `[mem/redis] the facts of user ${JSON.stringify(userId)} read back from Redis are corrupt; write them again (writeUserFacts) or remove them (forgetUser).`,
    cause === undefined ? {} : { cause },
  );
}
