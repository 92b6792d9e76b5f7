import { MemStoreError, MemValidationError } from '@mem/core';
import {
  assertValidSessionId,
  assertValidUserId,
  decodeListCursor,
  encodeListCursor,
  epochConflictError,
  parseCompactInput,
  parseEraseInput,
  parseFlushInput,
  parseListOptions,
  parseReadOptions,
  parseReplaceInput,
  parseSessionSnapshot,
  type ReadOptions,
  readAppendOptions,
  STORE_SPECIFICATION_VERSION,
  type Store,
  versionConflictError,
} from '@mem/core/backend';
import { type AppendCounters, appendArgs, countersAfter } from './append-plan.ts';
import {
  decodeAppendRecord,
  decodeArchive,
  decodeInfoFields,
  decodeRecords,
  decodeScored,
  decodeSnapshot,
  INFO_FIELDS,
} from './decode-stored.ts';
import { encodeBatch, idKey, importArgs, messageArgs, sumTokens } from './encode-stored.ts';
import { SCRIPTS } from './lua-scripts.ts';
import {
  checkCompaction,
  decodePrepared,
  forgetClosure,
  noActiveMessages,
  splitPrefix,
  summaryIdUsed,
} from './plan-rewrite.ts';
import { openConnection, runScript, storeError } from './redis-connection.ts';
import { flushOnRedis } from './redis-flush.ts';
import { listSessions } from './redis-list.ts';
import { checkRedisStoreOptions, type RedisStoreOptions } from './redis-store-options.ts';
import { readUserFacts, writeUserFactsOnRedis } from './redis-user-facts.ts';
import {
  confirmIndexed,
  forgetUserOnRedis,
  indexSession,
  listUserSessions,
  type UserContext,
} from './redis-user-index.ts';
import { sessionKeys } from './session-keys.ts';

const DEFAULT_LIST_LIMIT = 100;

/**
 * A `Store` (spec `mem.store.v3`) on Redis or Redis Cluster, through ioredis.
 *
 * - Every change is one Lua script over the five keys of one session, which share one hash slot
 *   (`{namespace:base64url(sessionId)}`), so it is atomic and runs unchanged on a cluster.
 * - Inputs are checked in TypeScript with core's parsers before any script runs; compact and
 *   erase plan from a read at one epoch and the script commits only at that epoch (CAS).
 * - `list` uses SCAN (on every master of a cluster), never KEYS.
 * - `flush` reads the summaries and archives at one epoch, then a script drops them at that
 *   epoch (`redis-flush.ts`).
 * - `pop` reads the newest member, then a script removes it only if it is still the newest (an
 *   append in between makes it read again), so exactly the newest message at that moment goes.
 * - With `ttlMs`, every key of a session gets PEXPIRE on each successful write.
 * - Users (v3): a session's binding is the `user` field of its meta hash, set atomically by the
 *   append that binds it. A user's index of sessions and its facts live under the user's own hash
 *   tag (`userKeys`), another slot: the index is written before a binding and is a superset,
 *   checked against each session's binding when read (`redis-user-index.ts`). `list({ userId })`
 *   pages through the index in the byte order of the UTF-8 ids (a cursor holds the last id
 *   returned, so it is valid only with the same `userId`); `forgetUser` erases each session with
 *   a script that checks the binding in the session's slot, then the facts. Neither the index nor
 *   the facts expire with `ttlMs`; an expired or cleared session leaves a stale index entry,
 *   which every reader skips and `forgetUser` removes.
 * - Connection failures, timeouts and server errors reject with `MemStoreError`.
 */
export function createRedisStore(options: RedisStoreOptions): Store {
  const { prefix, namespace, ttlMs, now, commandTimeoutMs } = checkRedisStoreOptions(options);
  const { client, owned } = openConnection(options, commandTimeoutMs);
  const ttl = ttlMs ?? 0;
  let closed = false;

  // The keys of the session used last (an agent works on one session at a time).
  let lastId: string | undefined;
  let lastKeys: string[] = [];
  // The counters its last append left (a hint: the append script checks them; see append-plan).
  let lastCounters: AppendCounters | undefined;
  const begin = (sessionId: unknown): string[] => {
    assertValidSessionId(sessionId);
    assertOpen();
    if (sessionId !== lastId) {
      lastKeys = sessionKeys(prefix, namespace, sessionId);
      lastId = sessionId;
      lastCounters = undefined;
    }
    return lastKeys;
  };
  const assertOpen = (): void => {
    if (closed) {
      throw new MemStoreError(
        '[mem/redis] this store is closed; create a new one with createRedisStore().',
      );
    }
  };
  const run = (keys: string[], script: keyof typeof SCRIPTS, args: (string | number)[]) =>
    runScript(client, SCRIPTS[script], keys, args);
  const at = () => String(now());
  const users: UserContext = { client, prefix, namespace };

  const store: Store = {
    specificationVersion: STORE_SPECIFICATION_VERSION,
    capabilities: Object.freeze({ ttl: true, multiProcess: true, durable: true }),
    namespace,

    append: op('append', async (sessionId, messages, appendOptions) => {
      const keys = begin(sessionId);
      const batch = encodeBatch(messages);
      const { idempotencyKey: key, userId } = readAppendOptions(appendOptions);
      const plan = (indexed: boolean) =>
        appendArgs(at(), ttl, key, batch, lastCounters, userId, indexed);
      let { args, planned } = plan(false);
      let reply = (await run(keys, 'append', args)) as unknown[];
      if (reply[0] === 'index' && userId !== undefined) {
        // This append binds the session: the user's index gets it first (see redis-user-index).
        await indexSession(users, userId, sessionId);
        ({ args, planned } = plan(true));
        reply = (await run(keys, 'append', args)) as unknown[];
      }
      const [status, value] = reply as [string, unknown];
      if (status === 'user') throw otherUser(sessionId);
      if (status === 'bound' && userId !== undefined) {
        await confirmIndexed(users, userId, sessionId);
      }
      if (status === 'id') {
        const i = Number(value);
        throw new MemValidationError(
          `messages[${i}].id`,
          `[mem/store] messages[${i}].id ${JSON.stringify(batch.ids[i])} is already used in session ${JSON.stringify(sessionId)}; message ids are unique per session (active or archived).`,
        );
      }
      // Only for the session the store still works on (another call may have moved on).
      if (lastId === sessionId) {
        lastCounters =
          status === 'ok' || status === 'bound' ? countersAfter(reply, planned) : undefined;
      }
      return decodeAppendRecord(value, status === 'dup');
    }),

    read: op('read', async (sessionId, readOptions) => {
      const keys = begin(sessionId);
      const range = readOptionsOf(readOptions);
      const rev = range.limit !== undefined && range.from === 'end';
      // One round trip, atomic, and no script (nothing to load, no Lua copy of the reply):
      // MULTI / HMGET meta / ZRANGE ... WITHSCORES / EXEC, both keys in one slot.
      const min = range.afterSeq === undefined ? '-inf' : `(${range.afterSeq}`;
      const max = range.beforeSeq === undefined ? '+inf' : `(${range.beforeSeq}`;
      const tx = client.multi().hmget(keys[0] as string, 'state', 'version', 'epoch');
      if (range.limit !== 0) {
        const args = rev ? [max, min, 'BYSCORE', 'REV'] : [min, max, 'BYSCORE'];
        if (range.limit !== undefined) args.push('LIMIT', '0', String(range.limit));
        tx.call('ZRANGE', keys[1] as string, ...args, 'WITHSCORES');
      }
      const [head, members] = execReplies(await tx.exec()) as [(string | null)[], unknown[]?];
      const live = head[0] === 'live';
      const messages = live && members !== undefined ? decodeScored(members, rev) : [];
      return { version: Number(head[1] ?? 0), epoch: Number(head[2] ?? 0), messages };
    }),

    info: op('info', async (sessionId) => {
      const keys = begin(sessionId);
      return decodeInfoFields(sessionId, await client.hmget(keys[0] as string, ...INFO_FIELDS));
    }),

    compact: op('compact', async (sessionId, input) => {
      const keys = begin(sessionId);
      const checked = parseCompactInput(input);
      const { expectedEpoch, throughSeq, summary, record } = checked;
      const prepared = decodePrepared(
        await run(keys, 'prepare', [throughSeq, idKey(summary.id), '0']),
      );
      if (prepared.epoch !== expectedEpoch) {
        throw epochConflictError(sessionId, expectedEpoch, prepared.epoch);
      }
      const { rest } = splitPrefix(sessionId, prepared, throughSeq, checked.keepSeqs);
      const replaced = rest.map((i) => prepared.messages[i]!);
      checkCompaction(sessionId, prepared, checked, replaced);
      const members = rest.map((i) => prepared.members[i]!);
      const [status, version, epoch] = (await run(keys, 'compact', [
        at(),
        ttl,
        expectedEpoch,
        idKey(summary.id),
        JSON.stringify(summary),
        throughSeq,
        JSON.stringify(record),
        `[${replaced.map((m) => JSON.stringify(m)).join(',')}]`,
        replaced.length,
        summary.tokenCount - sumTokens(replaced),
        ...members,
      ])) as [string, number, number];
      if (status === 'epoch') throw epochConflictError(sessionId, expectedEpoch, version);
      if (status === 'gone') throw noActiveMessages(sessionId);
      if (status === 'sid') throw summaryIdUsed(sessionId, summary.id);
      return { version, epoch, summarySeq: throughSeq };
    }),

    erase: op('erase', async (sessionId, input) => {
      const keys = begin(sessionId);
      const { expectedEpoch, throughSeq, keepSeqs } = parseEraseInput(input);
      const prepared = decodePrepared(await run(keys, 'prepare', [throughSeq, '', '1']));
      if (prepared.epoch !== expectedEpoch) {
        throw epochConflictError(sessionId, expectedEpoch, prepared.epoch);
      }
      const { rest } = splitPrefix(sessionId, prepared, throughSeq, keepSeqs);
      const erased = rest.map((i) => prepared.messages[i]!);
      const forgotten = forgetClosure(erased, prepared.records);
      const [status, version, epoch] = (await run(keys, 'erase', [
        at(),
        ttl,
        expectedEpoch,
        -sumTokens(erased),
        erased.length,
        forgotten.ids.length,
        forgotten.summaries.length,
        ...rest.map((i) => prepared.members[i]!),
        ...forgotten.ids,
        ...forgotten.summaries,
      ])) as [string, number, number];
      if (status === 'epoch') throw epochConflictError(sessionId, expectedEpoch, version);
      if (status === 'gone') throw noActiveMessages(sessionId);
      return { version, epoch, erasedCount: erased.length };
    }),

    replace: op('replace', async (sessionId, input) => {
      const keys = begin(sessionId);
      const { expectedVersion, messages } = parseReplaceInput(input);
      const [status, value] = (await run(keys, 'replace', [
        at(),
        ttl,
        expectedVersion ?? '',
        sumTokens(messages),
        messages.length,
        ...messageArgs(messages),
      ])) as [string, unknown];
      if (status === 'version') {
        throw versionConflictError(sessionId, expectedVersion ?? 0, Number(value));
      }
      return decodeAppendRecord(value, false);
    }),

    flush: op('flush', async (sessionId, input) => {
      const keys = begin(sessionId);
      const { expectedEpoch } = parseFlushInput(input);
      return flushOnRedis(client, keys, sessionId, expectedEpoch, at, ttl);
    }),

    pop: op('pop', async (sessionId) => {
      const keys = begin(sessionId);
      // Read the newest member, then remove it in a script only if it is still the newest (and
      // not a summary); an append in between moves it, and the read is tried again.
      for (;;) {
        const tx = client.multi().hmget(keys[0] as string, 'state', 'version', 'epoch');
        tx.call('ZRANGE', keys[1] as string, '-1', '-1', 'WITHSCORES');
        const [head, members] = execReplies(await tx.exec()) as [(string | null)[], unknown[]];
        const version = Number(head[1] ?? 0);
        const epoch = Number(head[2] ?? 0);
        if (head[0] !== 'live' || members.length === 0) return { version, epoch, message: null };
        const [message] = decodeScored(members);
        const member = (Array.isArray(members[0]) ? members[0][0] : members[0]) as string;
        if (message === undefined) return { version, epoch, message: null };
        const [status, after, afterEpoch] = (await run(keys, 'pop', [
          at(),
          ttl,
          member,
          idKey(message.id),
          message.tokenCount,
        ])) as [string, number, number];
        if (status === 'moved') continue;
        return {
          version: Number(after),
          epoch: Number(afterEpoch),
          message: status === 'ok' ? message : null,
        };
      }
    }),

    clear: op('clear', async (sessionId) => {
      const keys = begin(sessionId);
      return (await run(keys, 'clear', [at(), ttl])) === 1;
    }),

    summaries: op('summaries', async (sessionId) => {
      const keys = begin(sessionId);
      return decodeRecords((await run(keys, 'summaries', [])) as unknown[]);
    }),

    archived: op('archived', async (sessionId, summaryId) => {
      const keys = begin(sessionId);
      if (typeof summaryId !== 'string') return [];
      const text = await run(keys, 'archived', [idKey(summaryId)]);
      if (typeof text !== 'string') return [];
      return decodeArchive(text);
    }),

    list: op('list', async (listOptions) => {
      const { cursor, limit = DEFAULT_LIST_LIMIT, userId } = parseListOptions(listOptions);
      const after = cursor === undefined ? undefined : decodeListCursor(cursor);
      assertOpen();
      const page =
        userId === undefined
          ? await listSessions(users, after, limit)
          : await listUserSessions(users, userId, after, limit);
      const last = page.sessionIds[page.sessionIds.length - 1];
      return page.more && last !== undefined
        ? { sessionIds: page.sessionIds, cursor: encodeListCursor(last) }
        : { sessionIds: page.sessionIds };
    }),

    export: op('export', async (sessionId) => {
      const keys = begin(sessionId);
      const reply = await run(keys, 'export', []);
      return reply === null ? null : decodeSnapshot(sessionId, reply);
    }),

    import: op('import', async (snapshot) => {
      begin((snapshot as { sessionId?: unknown } | null)?.sessionId);
      const checked = parseSessionSnapshot(snapshot);
      const keys = sessionKeys(prefix, namespace, checked.sessionId);
      const { userId } = checked.info;
      if (userId !== undefined) await indexSession(users, userId, checked.sessionId);
      await run(keys, 'import', importArgs(checked, ttl));
      if (userId !== undefined) await confirmIndexed(users, userId, checked.sessionId);
    }),

    userFacts: op('userFacts', async (userId) => {
      assertValidUserId(userId);
      assertOpen();
      return readUserFacts(users, userId);
    }),

    writeUserFacts: op('writeUserFacts', async (userId, input) => {
      assertValidUserId(userId);
      assertOpen();
      return writeUserFactsOnRedis(users, userId, input);
    }),

    forgetUser: op('forgetUser', async (userId) => {
      assertValidUserId(userId);
      assertOpen();
      return forgetUserOnRedis(users, userId);
    }),

    close: async () => {
      if (closed) return;
      closed = true;
      if (owned) client.disconnect();
    },
  };
  return store;
}

function otherUser(sessionId: string): MemValidationError {
  return new MemValidationError(
    'userId',
    `[mem/store] session ${JSON.stringify(sessionId)} belongs to another user; pass the userId it was first used with (see info().userId), or use another session id.`,
  );
}

const READ_SEQS = new Set(['afterSeq', 'beforeSeq', 'limit']);

/**
 * `parseReadOptions`, without the schema for the plain case (known keys with valid values);
 * anything else goes through core's parser, so errors are core's.
 */
function readOptionsOf(options: unknown): ReadOptions {
  if (options === undefined) return {};
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    return parseReadOptions(options);
  }
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(options)) {
    const value = (options as Record<string, unknown>)[key];
    if (value === undefined) continue;
    if (key === 'from' ? value === 'start' || value === 'end' : isCount(key, value)) {
      out[key] = value;
    } else {
      return parseReadOptions(options);
    }
  }
  return out as ReadOptions;
}

function isCount(key: string, value: unknown): boolean {
  return READ_SEQS.has(key) && Number.isSafeInteger(value) && (value as number) >= 0;
}

/** The replies of an EXEC; the first failed command's error is thrown. */
function execReplies(results: [Error | null, unknown][] | null): unknown[] {
  if (results === null) throw new Error('the transaction was aborted');
  return results.map(([error, reply]) => {
    if (error) throw error;
    return reply;
  });
}

/** Runs an operation; anything that is not a MemError becomes a MemStoreError naming it. */
function op<A extends unknown[], R>(
  name: string,
  operation: (...args: A) => Promise<R>,
): (...args: A) => Promise<R> {
  return async (...args) => {
    try {
      return await operation(...args);
    } catch (error) {
      throw storeError(name, error);
    }
  };
}
