import { MemError } from '@mem/core';
import { describe, expect, it } from 'vitest';
import type { EnginePlaceFactory } from './engine-place.ts';
import {
  connections,
  exchange,
  shown,
  USER_COLLECTION,
  userEngine,
} from './user-memory-fixtures.ts';

const SYSTEM = 'You are the travel desk of Nordlys Tours.';
const FACTS_ID = 'mem:user-facts';

/**
 * User memory end to end on a backend: sessions bound to a user, recall across the user's
 * sessions, the facts block, concurrent fact extraction and `forgetUser`. Run by
 * `runEngineTests`.
 */
export function userMemoryEngineTests(name: string, createPlace: EnginePlaceFactory): void {
  describe(`user memory on ${name}`, () => {
    it('a new session of the user recalls an answer given in another session', async () => {
      const place = connections(await createPlace('user-recall'));
      const engine = place.engine();
      await exchange(
        engine.session('trip', { userId: 'ana' }),
        'Which ferry goes to Senja from Tromsø?',
        'The Hurtigbåt to Senja leaves at 07:40 from quay 3.',
      );
      await exchange(engine.session('trip', { userId: 'ana' }), 'Thanks!', 'You are welcome.');
      // A second process opens a new session of the same user.
      const fresh = place.engine().session('monday', { userId: 'ana' });
      await fresh.append({ role: 'user', content: 'When does the ferry to Senja leave?' });
      const context = await fresh.context();
      expect(context.knowledge.length).toBeGreaterThan(0);
      const text = shown(context.messages);
      expect(text).toContain('07:40 from quay 3');
      expect(text).toContain('another conversation: trip');
      await place.close();
    });

    it("another user's session never sees it", async () => {
      const place = connections(await createPlace('user-other'));
      const { store, kb } = place.open();
      const engine = userEngine(store, kb);
      await exchange(
        engine.session('trip', { userId: 'ana' }),
        'Which ferry goes to Senja from Tromsø?',
        'The Hurtigbåt to Senja leaves at 07:40 from quay 3.',
      );
      await exchange(engine.session('trip', { userId: 'ana' }), 'Thanks!', 'You are welcome.');
      for (const session of [engine.session('bob-1', { userId: 'bob' }), engine.session('anon')]) {
        await session.append({ role: 'user', content: 'When does the ferry to Senja leave?' });
        const context = await session.context();
        expect(context.knowledge).toEqual([]);
        expect(shown(context.messages)).not.toContain('07:40');
      }
      const bobHits = await kb.search(USER_COLLECTION, 'ferry Senja', { topK: 10, userId: 'bob' });
      expect(bobHits).toEqual([]);
      await place.close();
    });

    it('a session bound to user A is refused for user B, naming userId', async () => {
      const place = connections(await createPlace('user-bound'));
      const { store, kb } = place.open();
      await exchange(
        userEngine(store, kb).session('s', { userId: 'ana' }),
        'My booking code is BK-7781.',
        'Noted.',
      );
      expect((await store.info('s'))?.userId).toBe('ana');
      const other = place.engine();
      const handle = other.session('s', { userId: 'bob' });
      for (const call of [
        () => handle.context(),
        () => handle.append({ role: 'user', content: 'What is my booking code?' }),
      ]) {
        const error = await call().then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(MemError.hasCode(error, 'MEM_VALIDATION')).toBe(true);
        expect((error as { field: string }).field).toBe('userId');
      }
      // The store refuses it too, whoever asks: nothing was written.
      const direct = await store
        .append('s', [{ id: 'x', role: 'user', content: 'hi', createdAt: 0, tokenCount: 2 }], {
          idempotencyKey: 'k',
          userId: 'bob',
        })
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect((direct as { field?: string } | undefined)?.field).toBe('userId');
      expect((await store.read('s')).messages).toHaveLength(2);
      await place.close();
    });

    it("facts learnt in one session show in the next session's context after the system prompt", async () => {
      const place = connections(await createPlace('user-facts'));
      const { store, kb } = place.open();
      const engine = userEngine(store, kb);
      await exchange(
        engine.session('s1', { userId: 'ana' }),
        'remember home: Lives in Lisbon.',
        'Noted, Lisbon it is.',
      );
      await engine.idle();
      const next = place.engine().session('s2', { userId: 'ana' });
      await next.append({ role: 'system', content: SYSTEM });
      await next.append({ role: 'user', content: 'Which airport should I fly from?' });
      const { messages } = await next.context();
      expect(messages[0]!.content).toBe(SYSTEM);
      expect(messages[1]!.id).toBe(FACTS_ID);
      expect(messages[1]!.content).toContain('- Lives in Lisbon.');
      expect((await store.read('s2')).messages.map((m) => m.id)).not.toContain(FACTS_ID);
      const bob = engine.session('b', { userId: 'bob' });
      await bob.append({ role: 'user', content: 'Which airport should I fly from?' });
      expect(shown((await bob.context()).messages)).not.toContain('Lisbon');
      await place.close();
    });

    it('a corrected fact supersedes the old one', async () => {
      const place = connections(await createPlace('user-correct'));
      const engine = place.engine();
      await exchange(
        engine.session('s1', { userId: 'ana' }),
        'remember home: Lives in Lisbon.',
        'Ok.',
      );
      await engine.idle();
      const [first] = await engine.user('ana').facts();
      await exchange(
        engine.session('s2', { userId: 'ana' }),
        'remember home: Lives in Porto.',
        'Ok.',
      );
      await engine.idle();
      const facts = await engine.user('ana').facts();
      expect(facts.map((f) => [f.id, f.text])).toEqual([[first!.id, 'Lives in Porto.']]);
      const s3 = engine.session('s3', { userId: 'ana' });
      await s3.append({ role: 'user', content: 'Where do I live?' });
      const block = (await s3.context()).messages.find((m) => m.id === FACTS_ID)!;
      expect(block.content).toContain('Porto');
      expect(block.content).not.toContain('Lisbon');
      await place.close();
    });

    it('two sessions of one user extracting at once lose no fact', async () => {
      const place = connections(await createPlace('user-concurrent'));
      const engines = [place.engine(), place.engine()];
      const errors: unknown[] = [];
      for (const engine of engines) engine.on('facts:error', (e) => errors.push(e.error));
      const sessions = engines.map((engine, i) => engine.session(`s${i}`, { userId: 'ana' }));
      await Promise.all(
        sessions.map(async (session, i) => {
          for (let k = 0; k < 4; k++) {
            await session.append({
              role: 'user',
              content: `remember k${i}-${k}: Fact ${i}-${k}.`,
            });
            await session.append({ role: 'assistant', content: 'Noted.' });
          }
        }),
      );
      await Promise.all(engines.map((engine) => engine.idle()));
      expect(errors).toEqual([]);
      const texts = (await engines[0]!.user('ana').facts()).map((f) => f.text).sort();
      const expected = [0, 1].flatMap((i) => [0, 1, 2, 3].map((k) => `Fact ${i}-${k}.`));
      expect(texts).toEqual(expected.sort());
      await place.close();
    });

    it('forgetUser removes sessions, chunks and facts of the user and nothing of another user; a second call removes nothing', async () => {
      const place = connections(await createPlace('user-forget'));
      const { store, kb } = place.open();
      const engine = userEngine(store, kb);
      for (const [user, word] of [
        ['ana', 'alpha'],
        ['bob', 'bravo'],
      ] as const) {
        for (const sessionId of [`${user}-1`, `${user}-2`]) {
          const session = engine.session(sessionId, { userId: user });
          for (let i = 0; i < 4; i++) {
            await exchange(
              session,
              `remember ${word}${i}: Likes ${word}${i}.`,
              `Sure, ${word}${i}.`,
            );
          }
          await session.summarizeNow({ keepInteractions: 1 });
        }
      }
      await engine.idle();
      const bobSessions = await engine.user('bob').sessions();
      const bobExports = await Promise.all(bobSessions.map((id) => store.export(id)));
      const bobChunks = await kb.count(USER_COLLECTION, { userId: 'bob' });
      const bobFacts = await engine.user('bob').facts();
      expect(await kb.count(USER_COLLECTION, { userId: 'ana' })).toBeGreaterThan(0);

      const report = await engine.forgetUser('ana');
      expect(report.sessions).toBe(2);
      expect(report.messages).toBeGreaterThan(0);
      expect(report.facts).toBe(4);
      expect(report.chunks).toBeGreaterThan(0);
      for (const id of ['ana-1', 'ana-2']) {
        expect(await store.info(id)).toBeNull();
        expect(await kb.count(USER_COLLECTION, { sessionId: id })).toBe(0);
      }
      expect(await kb.count(USER_COLLECTION, { userId: 'ana' })).toBe(0);
      expect(await kb.search(USER_COLLECTION, 'alpha0 alpha1 alpha2', { topK: 50 })).toEqual([]);
      expect(await engine.user('ana').facts()).toEqual([]);
      expect(await engine.user('ana').sessions()).toEqual([]);
      expect(await engine.user('bob').sessions()).toEqual(bobSessions);
      expect(await Promise.all(bobSessions.map((id) => store.export(id)))).toEqual(bobExports);
      expect(await kb.count(USER_COLLECTION, { userId: 'bob' })).toBe(bobChunks);
      expect(await engine.user('bob').facts()).toEqual(bobFacts);

      const again = await place.engine().forgetUser('ana');
      expect(again).toEqual({ sessions: 0, messages: 0, facts: 0, chunks: 0 });
      await place.close();
    });
  });
}
