import { type EncodedBatch, IDEMPOTENCY_WINDOW } from './encode-stored.ts';

/** Idempotency records held beyond the window before a trim drops the oldest of them at once. */
export const TRIM_SLACK = 128;

/**
 * The counters of a session's meta hash as an append leaves them, which the store remembers for
 * the session it used last: with them the client plans the next append (every number it writes,
 * as text), and the script takes the plan only if the hash still holds exactly these values.
 */
export interface AppendCounters {
  version: number;
  epoch: number;
  lastSeq: number;
  count: number;
  tokens: number;
  /** Idempotency keys held, and the ordinal of the newest. */
  kn: number;
  ko: number;
}

/**
 * ARGV of the append script (see `APPEND` in lua-scripts.ts), n = the batch's messages:
 * [1] now, [2] ttl, [3] key field, [4] key, [5] tokens, [6] n,
 * [7..13] the counters the plan expects (version, epoch, lastSeq, count, tokens, kn, ko; '' when
 * there is no plan), [14] the planned record, [15 .. 14 + n] the id fields,
 * then the HSET arguments of the plan (18 + 2n: counters, record, order, ids), then the ZADD
 * arguments (2n: planned seq and message JSON; the seq is '' when there is no plan), then the
 * user the append names ('' for none) and '1' when the user's index already holds the session.
 */
export function appendArgs(
  now: string,
  ttl: number,
  key: string,
  batch: EncodedBatch,
  known: AppendCounters | undefined,
  user = '',
  indexed = false,
): { args: (string | number)[]; planned: AppendCounters | undefined } {
  const n = batch.ids.length;
  // No plan past the trim threshold: the script's own path drops the oldest keys then.
  const plan =
    known !== undefined && known.kn + 1 <= IDEMPOTENCY_WINDOW + TRIM_SLACK
      ? {
          version: known.version + 1,
          epoch: known.epoch,
          lastSeq: known.lastSeq + n,
          count: known.count + n,
          tokens: known.tokens + batch.tokens,
          kn: known.kn + 1,
          ko: known.ko + 1,
        }
      : undefined;
  const text = (value: number | undefined) => (value === undefined ? '' : String(value));
  const first = known === undefined ? undefined : known.lastSeq + 1;
  const record = plan === undefined ? '' : `${plan.version}:${plan.epoch}:${first}:${plan.lastSeq}`;
  const args: (string | number)[] = [now, ttl, `k:${key}`, key, batch.tokens, n];
  const expected = plan === undefined ? undefined : known;
  args.push(
    text(expected?.version),
    text(expected?.epoch),
    text(expected?.lastSeq),
    text(expected?.count),
    text(expected?.tokens),
    text(expected?.kn),
    text(expected?.ko),
    record,
  );
  const { args: messageArgs } = batch; // n id fields, then n JSONs
  for (let i = 0; i < n; i++) args.push(messageArgs[i]!);
  args.push(
    'version',
    text(plan?.version),
    'lastSeq',
    text(plan?.lastSeq),
    'count',
    text(plan?.count),
    'tokens',
    text(plan?.tokens),
    'updatedAt',
    now,
    'kn',
    text(plan?.kn),
    'ko',
    text(plan?.ko),
    `k:${key}`,
    record,
    `o:${text(plan?.ko)}`,
    key,
  );
  for (let i = 0; i < n; i++) args.push(messageArgs[i]!, '1');
  for (let i = 0; i < n; i++) {
    args.push(
      first === undefined || plan === undefined ? '' : String(first + i),
      messageArgs[n + i]!,
    );
  }
  args.push(user, indexed ? '1' : '0');
  return { args, planned: plan };
}

/**
 * The counters after an append that returned `reply` (['ok', record] when the script took the
 * plan; ['ok', record, count, tokens, kn, ko] when it computed them itself; 'bound' for 'ok'
 * when the append bound the session to its user).
 */
export function countersAfter(
  reply: readonly unknown[],
  planned: AppendCounters | undefined,
): AppendCounters | undefined {
  if (reply.length === 2) return planned;
  const [version, epoch, , lastSeq] = String(reply[1]).split(':').map(Number);
  const [count, tokens, kn, ko] = reply.slice(2, 6).map(Number);
  const counters = { version, epoch, lastSeq, count, tokens, kn, ko };
  return Object.values(counters).every(Number.isSafeInteger)
    ? (counters as AppendCounters)
    : undefined;
}
