import { describe, expect, it } from 'vitest';
import { MemValidationError } from '../../errors/errors.ts';
import { MemError } from '../../errors/mem-error.ts';
import { createInMemoryStore } from '../../store/in-memory-store.ts';
import { MemoryManager } from './memory-manager.ts';

/** Sessions are named `<user>/<chat>`; `anonymous/...` sessions have no user. */
const userOf = (sessionId: string) => {
  const user = sessionId.split('/')[0];
  return user === 'anonymous' ? undefined : user;
};

const failure = (run: () => Promise<unknown>) =>
  run().then(
    () => undefined,
    (e: unknown) => e,
  );

describe('MemoryManager({ userOf })', () => {
  it("binds each session to its user and shows the user's facts in a new session's context, not in another user's", async () => {
    const memory = new MemoryManager({ userOf });
    await memory.addUserMessage('ana/monday', 'Hi, my name is Ana.');
    await memory.addAssistantMessage('ana/monday', 'Hello Ana!');
    await memory.addUserMessage('ana/monday', 'Thanks, bye.');
    await memory.addAssistantMessage('ana/monday', 'Bye!');
    await memory.idle(); // facts are learnt in the background
    await memory.addUserMessage('ana/tuesday', 'Good morning!');
    await memory.addUserMessage('ben/tuesday', 'Good morning!');
    await memory.addUserMessage('anonymous/tuesday', 'Good morning!');

    expect(await memory.getContextForLLM('ana/tuesday')).toContain('Ana');
    expect(await memory.getContextForLLM('ben/tuesday')).not.toContain('Ana');
    expect(await memory.getContextForLLM('anonymous/tuesday')).not.toContain('Ana');
    expect((await memory.store.info('ana/tuesday'))?.userId).toBe('ana');
    expect((await memory.store.info('anonymous/tuesday'))?.userId).toBeUndefined();
  });

  it('forgetUser erases every session of the user and no one else’s', async () => {
    const memory = new MemoryManager({ userOf });
    await memory.addUserMessage('ana/monday', 'Hi, my name is Ana.');
    await memory.addUserMessage('ana/tuesday', 'Hello again.');
    await memory.addUserMessage('ben/monday', 'Hi, my name is Ben.');

    const report = await memory.forgetUser('ana');

    expect(report.sessions).toBe(2);
    expect((await memory.getActiveEntries('ana/monday')).length).toBe(0);
    expect((await memory.getActiveEntries('ben/monday')).map((e) => e.content)).toEqual([
      'Hi, my name is Ben.',
    ]);
  });

  it('a session stored for one user, reopened for another, is refused with a MemValidationError naming userId', async () => {
    const store = createInMemoryStore();
    await new MemoryManager({ store, userOf: () => 'ana' }).addUserMessage(
      'chat',
      'My code is 4711.',
    );
    const other = new MemoryManager({ store, userOf: () => 'ben' });

    const error = await failure(() => other.addUserMessage('chat', 'Hi'));

    expect((error as MemValidationError).field).toBe('userId');
    expect((await other.exportSession('chat')).entries.map((e) => e.content)).toEqual([
      'My code is 4711.',
    ]);
  });

  it('a userOf that returns a bad id or throws fails the call with a MemValidationError naming userOf', async () => {
    for (const bad of ['', 42, null, '\uD800ana']) {
      const memory = new MemoryManager({ userOf: () => bad as never });
      const error = await failure(() => memory.addUserMessage('chat', 'Hi'));
      expect(error).toBeInstanceOf(MemValidationError);
      expect((error as MemValidationError).field).toBe('userOf');
      expect((error as Error).message).toMatch(
        /^\[mem\/core\] MemoryManager: userOf\("chat"\) must return a user id/,
      );
      expect(await memory.getStats('chat')).toMatchObject({ totalEntries: 0 });
    }
    const throwing = new MemoryManager({
      userOf: () => {
        throw new Error('no such user');
      },
    });
    const error = await failure(() => throwing.getContextForLLM('chat'));
    expect((error as MemValidationError).field).toBe('userOf');
    expect((error as Error).message).toContain('no such user');
  });

  it('refuses a userOf that is not a function in its MemConfigError', () => {
    let caught: unknown;
    try {
      new MemoryManager({ userOf: 'ana' } as never);
    } catch (error) {
      caught = error;
    }
    expect(MemError.hasCode(caught, 'MEM_CONFIG')).toBe(true);
    expect((caught as Error).message).toContain('userOf: expected a function (sessionId)');
  });
});
