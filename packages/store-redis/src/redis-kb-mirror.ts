import {
  Bm25Index,
  type IndexedChunk,
  type KnowledgeChunk,
  keyByChunk,
  type Ranked,
  type ScoredHit,
} from '@mem/core/backend';
import type { Cluster, Redis } from 'ioredis';
import { copyChunk } from './redis-kb-chunk-cache.ts';
import type { SessionScope } from './redis-kb-read.ts';
import { kbScript, runKbScript } from './redis-kb-scripts.ts';

/*
 * Sessions a knowledge base searches again and again are mirrored in the client: their chunks
 * in a `Bm25Index` (the in-memory knowledge base's own index), so a search is one small round
 * trip to catch up with what other writers changed, then the in-memory search.
 *
 * A mirror is exact at one version of its session: the epoch (a session deleted whole and
 * written again has another), `seq` (the highest doc number handed out) and `rn` (how many
 * removals were logged, see "Removals" in `redis-kb-scripts.ts`). `KB_SYNC` sends what changed
 * since: the chunks numbered above `seq` that are still there, and the doc numbers removed
 * since. After applying them the mirror must hold the session's `docs` chunks of total length
 * `len`; if not (a writer of an earlier version removed chunks without logging, or analyzes
 * text otherwise), it is dropped and the search reads Redis as before.
 *
 * A mirror is built in the background from the second search of a session on (a process that
 * searches a session once never pays for it): one `HSCAN` of its chunks, page by page. The
 * scan is not a snapshot, so the mirror takes the version read before it; what changed during
 * the scan comes with the next sync (a chunk seen twice is one doc number: kept once). Mirrors
 * are bounded together by `mirrorBytes` (four times their chunks' JSON), least recently
 * searched dropped first.
 */

/**
 * KEYS: the session's chunks hash and stats hash (`kbKeys`' [1] and [5]: only what it reads).
 * ARGV: the mirror's epoch, seq, removals seen, and the most chunks to send. Replies
 * `{epoch, seq, docs, len, rn, removed, doc, json, doc, json, ...}`: the session's version and
 * totals, the doc numbers removed since (" doc doc ...") and each chunk numbered above the
 * mirror's `seq` that is still there; or `{epoch, seq, docs, len, rn}` alone when the mirror
 * cannot catch up (another epoch or none, the log no longer reaches back, too many new chunks).
 */
export const KB_SYNC = kbScript(
  'kbSync',
  `
local st = redis.call('HMGET', KEYS[2], 'epoch', 'seq', 'docs', 'len', 'rn')
local epoch, seq, rn = st[1] or '', tonumber(st[2]) or 0, tonumber(st[5]) or 0
local head = {epoch, tostring(seq), st[3] or '0', st[4] or '0', tostring(rn)}
local seq0, rn0, most = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
if epoch == '' or epoch ~= ARGV[1] or seq < seq0 or rn < rn0 or seq - seq0 > most then
  return head
end
local removed = ''
if rn > rn0 then
  local log = redis.call('HGET', KEYS[2], 'rlog') or ''
  local from, found = #log + 1, 0
  while found < rn - rn0 do
    local at = from - 1
    while at > 0 and string.byte(log, at) ~= 32 do at = at - 1 end
    if at == 0 then return head end
    from, found = at, found + 1
  end
  removed = string.sub(log, from)
end
head[6] = removed
if seq > seq0 then
  local fields = {}
  for n = seq0 + 1, seq do fields[#fields + 1] = tostring(n) end
  for from = 1, #fields, 1000 do
    local part = { unpack(fields, from, math.min(from + 999, #fields)) }
    local jsons = redis.call('HMGET', KEYS[1], unpack(part))
    for i = 1, #part do
      if jsons[i] then
        head[#head + 1] = part[i]
        head[#head + 1] = jsons[i]
      end
    end
  end
end
return head
`,
);

/** The keys `KB_SYNC` reads, of a session's `kbKeys`. */
function syncKeys(keys: readonly string[]): string[] {
  return [keys[1] as string, keys[5] as string];
}

/** Most chunks a sync brings; a mirror further behind is built again. */
const MOST_SYNCED = 2_000;
/** Most searches a dropped mirror waits before it is built again (the wait doubles up to it). */
const MAX_WAIT = 64;
/** Chunks per HSCAN page while building. */
const SCAN_PAGE = 500;
/**
 * What a mirror is charged per character of its chunks' JSON (the parsed chunk, its index
 * entry and postings): the in-memory knowledge base measured ~3.9 kB of RSS per ~1 kB chunk.
 */
const BYTES_PER_CHAR = 4;

interface Mirror {
  epoch: string;
  seq: number;
  rn: number;
  index: Bm25Index;
  byDoc: Map<number, IndexedChunk>;
  /** Each held chunk's doc number and what it is charged. */
  info: Map<IndexedChunk, { doc: number; size: number }>;
  /** The chunks' total length (their terms, repeats included), as the session's `len`. */
  length: number;
  bytes: number;
  /** Bumped whenever a catch-up changes it (so a search made before knows it is stale). */
  changes: number;
}

interface SessionEntry {
  searches: number;
  /** Searches needed before a build is tried (doubled after each mirror dropped, to 64). */
  threshold: number;
  mirror?: Mirror;
  building?: boolean;
}

type SyncReply = string[];

/** The mirrors of one knowledge base (`mirrorBytes` of them at most). */
export class SessionMirrors {
  readonly #sessions = new Map<string, SessionEntry>();
  readonly #maxBytes: number;
  #bytes = 0;
  #closed = false;

  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  /**
   * The `depth` best chunks of `session` for the distinct query `terms` from its mirror, caught
   * up first; undefined when it has none ready (a build may start in the background), so the
   * caller reads Redis.
   */
  async search(
    client: Redis | Cluster,
    session: SessionScope,
    terms: readonly string[],
    depth: number,
  ): Promise<Ranked<ScoredHit>[] | undefined> {
    if (this.#maxBytes <= 0 || session.owner !== undefined) return undefined;
    const key = session.keys[1] as string;
    let entry = this.#sessions.get(key);
    if (entry === undefined) {
      entry = { searches: 0, threshold: 2 };
      this.#sessions.set(key, entry);
      this.#trimEntries();
    } else {
      // Most recently searched last, for eviction.
      this.#sessions.delete(key);
      this.#sessions.set(key, entry);
    }
    entry.searches += 1;
    const mirror = entry.mirror;
    if (mirror === undefined) {
      if (!entry.building && entry.searches >= entry.threshold) {
        entry.building = true;
        void this.#build(client, session.keys, entry).finally(() => {
          entry.building = false;
        });
      }
      return undefined;
    }
    const sorted = [...terms].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const searchMirror = () =>
      keyByChunk(
        mirror.index
          .search(sorted, depth, session.sessionId)
          .map(({ chunk, score }) => ({ chunk: copyChunk(chunk), score })),
      );
    // Searched while the catch-up is on the wire: when it brings nothing (most searches), that
    // answer is the session's as of the reply.
    let early: Ranked<ScoredHit>[] | undefined;
    let changes = -1;
    const synced = await this.#sync(client, session.keys, entry, mirror, () => {
      changes = mirror.changes;
      early = searchMirror();
    });
    if (!synced) return undefined;
    return early !== undefined && mirror.changes === changes ? early : searchMirror();
  }

  /**
   * Catches the session's mirror up after this client wrote to it (the write's caller waits, as
   * the in-memory knowledge base's indexes before it returns), so its next search finds nothing
   * new to apply. Never fails: a mirror that cannot catch up is dropped.
   */
  async refresh(client: Redis | Cluster, keys: readonly string[]): Promise<void> {
    const entry = this.#sessions.get(keys[1] as string);
    const mirror = entry?.mirror;
    if (entry === undefined || mirror === undefined) return;
    try {
      await this.#sync(client, keys, entry, mirror);
    } catch {
      // The next search syncs again.
    }
  }

  /** Catches `mirror` up with its session; false (and the mirror dropped) when it cannot. */
  async #sync(
    client: Redis | Cluster,
    keys: readonly string[],
    entry: SessionEntry,
    mirror: Mirror,
    meanwhile?: () => void,
  ): Promise<boolean> {
    const request = runKbScript(client, KB_SYNC, syncKeys(keys), [
      mirror.epoch,
      mirror.seq,
      mirror.rn,
      MOST_SYNCED,
    ]);
    try {
      meanwhile?.();
    } finally {
      await request.catch(() => undefined); // never left unhandled; awaited below
    }
    const reply = (await request) as SyncReply;
    if (entry.mirror !== mirror) return false; // dropped or rebuilt meanwhile
    if (!this.#catchUp(mirror, reply)) {
      this.#drop(entry, entry.threshold * 2);
      return false;
    }
    if (mirror.bytes > this.#maxBytes) {
      this.#drop(entry, Number.POSITIVE_INFINITY); // grew past the budget
      return false;
    }
    this.#evict(entry);
    return true;
  }

  /** Stops building; drops every mirror. */
  close(): void {
    this.#closed = true;
    this.#sessions.clear();
    this.#bytes = 0;
  }

  /** Applies a sync reply; false when the mirror cannot be trusted any more. */
  #catchUp(mirror: Mirror, reply: SyncReply): boolean {
    const [epoch = '', seq = '0', docs = '0', len = '0', rn = '0', removed] = reply;
    if (removed === undefined || epoch !== mirror.epoch) return false;
    const version = { seq: Number(seq), rn: Number(rn) };
    // A reply older than what an overlapping search already applied has nothing new.
    if (version.seq >= mirror.seq && version.rn >= mirror.rn) {
      const gone: number[] = [];
      for (const doc of removed.split(' ')) if (doc !== '') gone.push(Number(doc));
      const added: [number, string][] = [];
      for (let i = 6; i + 1 < reply.length; i += 2) {
        added.push([Number(reply[i]), reply[i + 1] as string]);
      }
      const before = mirror.bytes;
      if (apply(mirror, gone, added) || version.seq !== mirror.seq || version.rn !== mirror.rn) {
        mirror.changes += 1;
      }
      this.#bytes += mirror.bytes - before;
      mirror.seq = version.seq;
      mirror.rn = version.rn;
      return mirror.index.size === Number(docs) && mirror.length === Number(len);
    }
    return true;
  }

  /** Builds the session's mirror from one HSCAN of its chunks, at the version read before. */
  async #build(client: Redis | Cluster, keys: readonly string[], entry: SessionEntry) {
    try {
      const [epoch = '', seq = '0', , , rn = '0'] = (await runKbScript(
        client,
        KB_SYNC,
        syncKeys(keys),
        ['', 0, 0, 0],
      )) as SyncReply;
      if (epoch === '') return; // written only by an earlier version: never mirrored
      const mirror: Mirror = {
        epoch,
        seq: Number(seq),
        rn: Number(rn),
        index: new Bm25Index(),
        byDoc: new Map(),
        info: new Map(),
        length: 0,
        bytes: 0,
        changes: 0,
      };
      let cursor = '0';
      do {
        const [next, flat] = await client.hscan(keys[1] as string, cursor, 'COUNT', SCAN_PAGE);
        if (this.#closed || !this.#sessions.has(keys[1] as string)) return;
        cursor = next;
        const page: [number, string][] = [];
        for (let i = 0; i + 1 < flat.length; i += 2) {
          page.push([Number(flat[i]), flat[i + 1] as string]);
        }
        apply(mirror, [], page);
        if (mirror.bytes > this.#maxBytes) {
          entry.threshold = Number.POSITIVE_INFINITY; // too big for the budget
          return;
        }
      } while (cursor !== '0');
      entry.mirror = mirror;
      this.#bytes += mirror.bytes;
      this.#evict(entry);
    } catch {
      // A failed build leaves the session searched from Redis; a later search may try again.
      entry.threshold = entry.searches + entry.threshold;
    }
  }

  /**
   * Drops the session's mirror; a build is tried again after `threshold` more searches (at most
   * `MAX_WAIT`, unless it can never fit).
   */
  #drop(entry: SessionEntry, threshold: number): void {
    if (entry.mirror === undefined) return;
    this.#bytes -= entry.mirror.bytes;
    delete entry.mirror;
    entry.searches = 0;
    entry.threshold =
      threshold === Number.POSITIVE_INFINITY ? threshold : Math.min(threshold, MAX_WAIT);
  }

  /**
   * Drops the least recently searched mirrors (but `keep`) until within the budget; each waits
   * twice as many searches as before to be built again, so sessions that do not fit together
   * are not read again and again.
   */
  #evict(keep: SessionEntry | undefined): void {
    for (const entry of this.#sessions.values()) {
      if (this.#bytes <= this.#maxBytes) return;
      if (entry === keep || entry.mirror === undefined) continue;
      this.#drop(entry, entry.threshold * 2);
    }
  }

  /** Forgets the search counts of the least recently searched sessions beyond 10,000. */
  #trimEntries(): void {
    for (const [key, entry] of this.#sessions) {
      if (this.#sessions.size <= 10_000) return;
      if (entry.mirror !== undefined || entry.building) continue;
      this.#sessions.delete(key);
    }
  }
}

/**
 * Removes the mirror's chunks numbered in `gone`, then adds the chunks of `added` (doc number,
 * JSON) it does not hold yet. Of two chunks with one id, the one with the larger number is the
 * newer: it replaces the other (whose removal is logged after, or the count tells).
 */
function apply(
  mirror: Mirror,
  gone: readonly number[],
  added: ReadonlyArray<[number, string]>,
): boolean {
  const { index, byDoc, info } = mirror;
  const doomed = new Set<IndexedChunk>();
  for (const doc of gone) {
    const entry = byDoc.get(doc);
    if (entry !== undefined) doomed.add(entry);
  }
  const fresh = new Map<string, { doc: number; chunk: KnowledgeChunk; size: number }>();
  for (const [doc, json] of added) {
    if (byDoc.has(doc)) continue;
    const chunk = JSON.parse(json) as KnowledgeChunk;
    const { sessionId } = chunk.metadata;
    // Session ids hold no control characters, so NUL separates the key parts unambiguously.
    const key = `${sessionId}\u0000${chunk.id}`;
    const other = fresh.get(key);
    if (other !== undefined && other.doc > doc) continue;
    const held = index.sessions.get(sessionId)?.get(chunk.id);
    if (held !== undefined && !doomed.has(held)) {
      if ((info.get(held)?.doc ?? 0) > doc) continue;
      doomed.add(held);
    }
    fresh.set(key, { doc, chunk, size: json.length * BYTES_PER_CHAR });
  }
  if (doomed.size > 0) {
    index.remove([...doomed]);
    for (const entry of doomed) {
      const held = info.get(entry);
      if (held === undefined) continue;
      info.delete(entry);
      byDoc.delete(held.doc);
      mirror.length -= entry.length;
      mirror.bytes -= held.size;
    }
  }
  if (fresh.size === 0) return doomed.size > 0;
  index.add([...fresh.values()].map((f) => f.chunk));
  for (const { doc, chunk, size } of fresh.values()) {
    const entry = index.sessions.get(chunk.metadata.sessionId)?.get(chunk.id);
    if (entry === undefined) continue;
    info.set(entry, { doc, size });
    byDoc.set(doc, entry);
    mirror.length += entry.length;
    mirror.bytes += size;
  }
  return true;
}
