import { fileURLToPath } from 'node:url';
import { isSummaryMessage } from '@mem/core';
import { describe, expect, it } from 'vitest';
import { loadConversation } from '../conversation/load-conversation.ts';
import { openLiveSession } from './live-session.ts';
import { planTurns } from './plan-turns.ts';
import { presetProfile } from './presets.ts';

const SUPPORT_DESK = fileURLToPath(
  new URL('../../../../packages/core/examples/support-desk.conversation.json', import.meta.url),
);

describe('openLiveSession', () => {
  // At every turn, what the recorder derives must be what the real store holds.
  for (const preset of ['combined', 'neuralyzer'] as const) {
    it(`${preset}: detail(turn) matches the store after every turn, and again at the end`, async () => {
      const turns = planTurns(await loadConversation(SUPPORT_DESK));
      const live = await openLiveSession({ profile: presetProfile(preset), store: 'sqlite' });
      const session = live.engine.session(live.sessionId);
      const seen = [];
      try {
        for (const turn of turns) {
          const { detail } = await live.turn(turn.user, turn.replies, {
            before: turn.before,
            day: turn.day,
          });
          seen.push(detail);
          const active = (await session.messages()).filter((m) => !isSummaryMessage(m));
          const kept = await session.history();
          const byState = (s: string) =>
            detail.history.filter((h) => h.state === s).map((h) => h.id);
          expect(byState('active')).toEqual(active.map((m) => m.id));
          expect(detail.history.filter((h) => h.state !== 'erased').map((h) => h.id)).toEqual(
            kept.map((m) => m.id),
          );
          expect(detail.turn.historyTokens).toBe(kept.reduce((s, m) => s + m.tokenCount, 0));
          const stored = (await session.summaries()).map((s) => s.id).sort();
          expect(detail.summaries.map((s) => s.id).sort()).toEqual(stored);
        }
      } finally {
        await live.close();
      }
      // Derived after the store is closed, each turn's detail is what it was at the time.
      for (const [i, detail] of seen.entries()) expect(live.detail(i)).toEqual(detail);
      expect(live.turns).toHaveLength(turns.length);
    });
  }

  it("with a user, each session its own: detail(turn) matches the user's sessions in the store, erasures in one session leave the others", async () => {
    // Erases every 6 interactions within a session: each session of the conversation erases.
    const profile = {
      long_term_memory_strategy: [
        { long_term_memory_id: 'neuralyzer', interaction_threshold_qty: 6, interaction_keep: 2 },
      ],
    };
    const turns = planTurns(await loadConversation(SUPPORT_DESK), { sessionsApart: true });
    const live = await openLiveSession({
      profile,
      store: 'sqlite',
      userId: 'maren',
      sessionId: `maren:${turns[0]!.day}`,
    });
    try {
      for (const turn of turns) {
        await live.switchSession(`maren:${turn.day}`);
        const { detail } = await live.turn(turn.user, turn.replies, {
          before: turn.before,
          day: turn.day,
        });
        const kept = [];
        for (const id of live.sessionIds) {
          kept.push(...(await live.engine.session(id, { userId: 'maren' }).history()));
        }
        expect(detail.history.filter((h) => h.state !== 'erased').map((h) => h.id)).toEqual(
          kept.map((m) => m.id),
        );
        expect(detail.turn.historyTokens).toBe(kept.reduce((s, m) => s + m.tokenCount, 0));
        // The prompt is the session's own (and the user's facts): no message of another session.
        const prefix = `${turn.day.slice(0, 2)}-`;
        for (const item of detail.context.filter((c) => c.kind !== 'facts')) {
          expect(item.id.startsWith(prefix), item.id).toBe(true);
        }
      }
      const days = new Set(turns.map((t) => t.day));
      expect(live.sessionIds).toEqual([...days].map((d) => `maren:${d}`));
      expect((await live.engine.user('maren').sessions()).sort()).toEqual(
        [...live.sessionIds].sort(),
      );
      const erasing = new Set(
        live.turns
          .filter((t) => t.events.some((e) => e.kind === 'erasure'))
          .map((t) => t.sessionId),
      );
      expect(erasing.size).toBeGreaterThanOrEqual(2);
    } finally {
      await live.close();
    }
  });

  it('chats turn by turn: the context holds the new user message, replies count in history', async () => {
    const live = await openLiveSession({
      profile: presetProfile('short-term'),
      store: 'memory',
      sessionId: 'chat',
    });
    try {
      const context = await live.beginTurn({
        role: 'user',
        content: 'Where is shipment BW-20418?',
      });
      expect(context.messages.at(-1)?.content).toBe('Where is shipment BW-20418?');
      await expect(live.beginTurn({ role: 'user', content: 'again' })).rejects.toThrow(/endTurn/);
      const { snapshot, detail } = await live.endTurn([
        { role: 'assistant', content: 'It was delivered on Friday.' },
      ]);
      expect(snapshot.index).toBe(0);
      expect(snapshot.sessionId).toBe('live');
      expect(snapshot.promptTokens).toBe(context.tokenCount);
      expect(detail.history.map((h) => h.role)).toEqual(['user', 'assistant']);
      expect(snapshot.historyTokens).toBe(detail.history.reduce((s, h) => s + h.tokens, 0));
      await expect(live.endTurn([])).rejects.toThrow(/beginTurn/);
    } finally {
      await live.close();
    }
    await expect(live.beginTurn({ role: 'user', content: 'late' })).rejects.toThrow(/closed/);
  });

  it('asks between turns only, storing nothing: the question ends the context, the window is marked', async () => {
    const live = await openLiveSession({ profile: presetProfile('short-term'), store: 'memory' });
    try {
      await live.turn({ role: 'user', content: 'BW-20418 goes to Hamburg.' }, [
        { role: 'assistant', content: 'Noted: Hamburg.' },
      ]);
      const answer = await live.ask('Where does BW-20418 go?');
      expect(answer.context.at(-1)).toMatchObject({
        kind: 'question',
        role: 'user',
        text: 'Where does BW-20418 go?',
      });
      const history = live.detail(0).history;
      expect(answer.present).toEqual(history.map((h) => ({ id: h.id, how: 'window' })));
      expect(answer.turns).toBe(1);
      expect(await live.engine.session(live.sessionId).history()).toHaveLength(2);
      await live.beginTurn({ role: 'user', content: 'And the pallets?' });
      await expect(live.ask('now?')).rejects.toThrow(/endTurn/);
      await live.endTurn([{ role: 'assistant', content: 'Six.' }]);
    } finally {
      await live.close();
    }
    await expect(live.ask('late')).rejects.toThrow(/closed/);
  });

  it('refuses a redis store without a URL and an unknown store, naming the option', async () => {
    await expect(openLiveSession({ profile: {}, store: 'redis' })).rejects.toThrow(/redisUrl/);
    await expect(
      openLiveSession({ profile: {}, store: 'mongo' as unknown as 'memory' }),
    ).rejects.toThrow(/store: expected one of memory, sqlite, redis/);
  });
});
