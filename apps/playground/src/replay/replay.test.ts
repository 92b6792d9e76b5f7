import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTokenCounter } from '@mem/core';
import { createSqliteStore } from '@mem/store-sqlite';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConversation } from '../conversation/load-conversation.ts';
import { hasRedisServer, startRedis } from './__fixtures__/redis-server.ts';
import { slugify } from './plan-turns.ts';
import { presetProfile } from './presets.ts';
import { replay } from './replay.ts';
import type { Conversation, ReplayResult, TurnDetail } from './replay-types.ts';

const SUPPORT_DESK = fileURLToPath(
  new URL('../../../../packages/core/examples/support-desk.conversation.json', import.meta.url),
);
const PRIMING = createTokenCounter().replyPrimingTokens;
let conversation: Conversation;
beforeAll(async () => {
  conversation = await loadConversation(SUPPORT_DESK);
});

/** Checks one turn's detail against itself and the replay's own records. */
function expectConsistent(result: ReplayResult, detail: TurnDetail) {
  const { turn } = detail;
  // What is sent is exactly the context items, plus the reply priming.
  expect(detail.context.reduce((s, c) => s + c.tokens, 0) + PRIMING).toBe(turn.promptTokens);
  expect(detail.context.some((c) => c.id === turn.userMessageId)).toBe(true);
  const live = detail.history.filter((h) => h.state !== 'erased');
  expect(live.reduce((s, h) => s + h.tokens, 0)).toBe(turn.historyTokens);
  // Messages arrive in conversation order: the user message of this turn is in the history.
  const ids = detail.history.map((h) => h.id);
  expect(ids).toContain(turn.userMessageId);
  expect(ids.indexOf(result.turns[turn.index + 1]?.userMessageId ?? '')).toBe(-1);
  const tokens = new Map([
    ...detail.history.map((h) => [h.id, h.tokens] as const),
    ...detail.summaries.map((s) => [s.id, s.summaryTokens] as const),
  ]);
  for (const s of detail.summaries) {
    expect(s.turn).toBeLessThanOrEqual(turn.index);
    expect(s.ratio).toBeCloseTo(s.summaryTokens / s.originalTokens, 10);
    expect(s.ratio).toBeLessThan(1);
    expect(s.text).toMatch(/^Summary of the earlier conversation/);
    // The originals' tokens add up to what the summary replaced.
    expect(s.originalMessageIds.reduce((sum, id) => sum + tokens.get(id)!, 0)).toBe(
      s.originalTokens,
    );
    expect(s.start).toBeLessThanOrEqual(s.end);
  }
  for (const h of detail.history.filter((x) => x.state === 'archived')) {
    const summary = detail.summaries.find((s) => s.id === h.summaryId);
    expect(summary?.originalMessageIds).toContain(h.id);
  }
}

describe('replay (support-desk conversation, seed presets)', () => {
  it('combined on SQLite: two compactions or more, history archived, 8,000-token prompts', async () => {
    const result = await replay({
      conversation,
      profile: presetProfile('combined'),
      store: 'sqlite',
    });
    const { stats } = result;
    expect(stats.turns).toBe(52);
    const all = conversation.sessions.reduce((n, s) => n + s.messages.length, 0);
    expect(stats.messages).toBe(all - 3); // the 3 later copies of the system prompt are dropped
    expect(stats.compactions).toBeGreaterThanOrEqual(2);
    expect(stats.erasures).toBe(0);
    expect(stats.compressionRatio).toBeGreaterThan(0);
    expect(stats.compressionRatio).toBeLessThan(1);
    expect(stats.tokensSent).toBeLessThan(stats.tokensStored);
    expect(stats.tokensStored).toBe(result.turns.reduce((s, t) => s + t.historyTokens, 0));
    for (const t of result.turns) expect(t.promptTokens).toBeLessThanOrEqual(8000);
    const compactions = result.turns.flatMap((t) => t.events.map((e) => ({ ...e, turn: t.index })));
    expect(compactions.every((e) => e.kind === 'compaction' && e.summaryId && e.count > 0)).toBe(
      true,
    );
    // interaction_threshold_qty 20: the first compaction lands once 21 interactions exist.
    expect(compactions[0]!.turn).toBe(20);
    expect(new Set(result.turns.map((t) => t.sessionId))).toEqual(
      new Set(conversation.sessions.map((s) => s.id)),
    );

    const before = result.detail(compactions[0]!.turn - 1);
    expect(before.summaries).toEqual([]);
    expect(before.history.every((h) => h.state === 'active')).toBe(true);
    const after = result.detail(compactions[0]!.turn);
    expect(after.summaries.map((s) => s.id)).toEqual([compactions[0]!.summaryId]);
    expect(after.history.filter((h) => h.state === 'archived').length).toBeGreaterThan(0);
    const last = result.detail(result.turns.length - 1);
    expect(last.context[0]).toMatchObject({ kind: 'system', role: 'system' });
    expect(last.context.filter((c) => c.kind === 'summary')).toHaveLength(1);
    expect(last.context.at(-1)?.kind).toBe('window');
    for (const t of result.turns) expectConsistent(result, result.detail(t.index));
    expect(() => result.detail(52)).toThrow(/turns 0 to 51/);
  });

  it('neuralyzer: an erasure, after which erased history stays erased and leaves the totals', async () => {
    const result = await replay({
      conversation,
      profile: presetProfile('neuralyzer'),
      store: 'sqlite',
    });
    const erasures = result.turns.filter((t) => t.events.some((e) => e.kind === 'erasure'));
    expect(erasures.length).toBeGreaterThanOrEqual(1);
    const at = erasures[0]!.index;
    expect(erasures[0]!.events[0]!.count).toBeGreaterThan(0);
    expect(result.detail(at - 1).history.some((h) => h.state === 'erased')).toBe(false);
    const erased = result.detail(at).history.filter((h) => h.state === 'erased');
    expect(erased.length).toBe(erasures[0]!.events[0]!.count);
    expect(erased.some((h) => h.role === 'system')).toBe(false); // the system prompt is pinned
    expect(result.turns[at]!.historyTokens).toBeLessThan(result.turns[at - 1]!.historyTokens);
    const end = result.detail(result.turns.length - 1);
    for (const h of erased) expect(end.history.find((x) => x.id === h.id)?.state).toBe('erased');
    for (const t of result.turns) expectConsistent(result, result.detail(t.index));
  });

  it('summarizer: retrieved knowledge (SQLite FTS5) shows up as context items and hits', async () => {
    const result = await replay({
      conversation,
      profile: presetProfile('summarizer'),
      store: 'sqlite',
    });
    const withHits = result.turns
      .map((t) => result.detail(t.index))
      .filter((d) => d.knowledgeHits.length > 0);
    expect(withHits.length).toBeGreaterThan(0);
    for (const d of withHits) {
      expect(d.context.filter((c) => c.kind === 'knowledge')).toHaveLength(1);
      // Best first (the engine drops hits on the summary already in the context, keeping ranks).
      const ranks = d.knowledgeHits.map((h) => h.rank);
      expect(ranks).toEqual([...ranks].sort((x, y) => x - y));
      const item = d.context.find((c) => c.kind === 'knowledge')!;
      for (const hit of d.knowledgeHits) expect(item.text).toContain(hit.text);
      expectConsistent(result, d);
    }
  });

  it('memory and SQLite stores replay to the same turns', async () => {
    for (const preset of ['combined', 'neuralyzer'] as const) {
      const [a, b] = await Promise.all(
        (['memory', 'sqlite'] as const).map((store) =>
          replay({ conversation, profile: presetProfile(preset), store }),
        ),
      );
      // Summary ids are random per run; everything else must match.
      const strip = (r: ReplayResult) =>
        r.turns.map((t) => ({ ...t, events: t.events.map(({ summaryId: _, ...e }) => e) }));
      expect(strip(a!)).toEqual(strip(b!));
      expect({ ...a!.stats, msPerTurn: 0, totalMs: 0 }).toEqual({
        ...b!.stats,
        msPerTurn: 0,
        totalMs: 0,
      });
    }
  });

  it.skipIf(!hasRedisServer)(
    'a real Redis server replays to the same turns as memory, and twice',
    async () => {
      const redis = await startRedis();
      try {
        const profile = presetProfile('neuralyzer');
        const memory = await replay({ conversation, profile, store: 'memory' });
        const first = await replay({ conversation, profile, store: 'redis', redisUrl: redis.url });
        // The thread is cleared when a replay starts: a second run over the same server is the same.
        const second = await replay({ conversation, profile, store: 'redis', redisUrl: redis.url });
        expect(first.turns).toEqual(memory.turns);
        expect(second.turns).toEqual(memory.turns);
        expect(second.detail(51)).toEqual(memory.detail(51));
      } finally {
        await redis.stop();
      }
    },
  );

  it('keeps a given SQLite file, holding the thread under the slug of the title', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'playground-test-'));
    try {
      const path = join(dir, 'kept.sqlite');
      const progress: number[] = [];
      await replay({
        conversation,
        profile: presetProfile('combined'),
        store: 'sqlite',
        sqlitePath: path,
        onProgress: (done, total) => progress.push(done / total),
      });
      expect(progress).toHaveLength(52);
      expect(progress.at(-1)).toBe(1);
      expect(existsSync(path)).toBe(true);
      const store = createSqliteStore({ path });
      const id = slugify(conversation.title);
      expect(id).toBe('brightwell-freight-operations-desk-9-20-march-2026');
      expect((await store.summaries(id)).length).toBeGreaterThanOrEqual(2);
      await store.close();
      // Replaying again into the same file starts the thread afresh.
      const again = await replay({
        conversation,
        profile: presetProfile('combined'),
        store: 'sqlite',
        sqlitePath: path,
      });
      expect(again.stats.messages).toBe(184);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
