import { describe, expect, it } from 'vitest';
import type { MemConfigError } from '../../errors/errors.ts';
import { MemValidationError } from '../../errors/errors.ts';
import { MemError } from '../../errors/mem-error.ts';
import { createInMemoryStore } from '../../store/in-memory-store.ts';
import { Memory } from './memory.ts';

/** The text of the system messages `messages()` returns. */
async function systemText(memory: Memory): Promise<string> {
  return (await memory.messages())
    .filter((m) => m.role === 'system')
    .map((m) => String(m.content))
    .join('\n');
}

describe('new Memory({ userId })', () => {
  it("the user's facts are in the messages of a new conversation of the user, not of another user's", async () => {
    const store = createInMemoryStore();
    const monday = new Memory({ store, sessionId: 'monday', userId: 'ana' });
    await monday.add('Hi, my name is Ana.', 'Hello Ana!');
    await monday.add('Thanks, that is all.', 'Bye!');
    await monday.idle();

    const tuesday = new Memory({ store, sessionId: 'tuesday', userId: 'ana' });
    await tuesday.add('Good morning!', 'Good morning.');
    const bens = new Memory({ store, sessionId: 'bens', userId: 'ben' });
    await bens.add('Good morning!', 'Good morning.');

    expect(tuesday.userId).toBe('ana');
    expect(await systemText(tuesday)).toContain('Ana');
    expect(await systemText(bens)).not.toContain('Ana');
    expect((await store.info('tuesday'))?.userId).toBe('ana');
  });

  it("reopening a user's conversation for another user is refused with a MemValidationError naming userId, and changes nothing", async () => {
    const store = createInMemoryStore();
    await new Memory({ store, sessionId: 'monday', userId: 'ana' }).add('My code is 4711.', 'Ok.');
    const ben = new Memory({ store, sessionId: 'monday', userId: 'ben' });

    const error = await ben.add('Hi', 'Hello').then(
      () => undefined,
      (e: unknown) => e,
    );

    expect(error).toBeInstanceOf(MemValidationError);
    expect((error as MemValidationError).field).toBe('userId');
    const reopened = new Memory({ store, sessionId: 'monday', userId: 'ana' });
    expect((await reopened.messages()).map((m) => m.content)).toEqual(['My code is 4711.', 'Ok.']);
  });

  it('refuses an empty, non-string or ill-formed userId in one MemConfigError naming it', () => {
    for (const userId of ['', 42, null, '\uD800ana', 'a\nb', 'x'.repeat(513)]) {
      let caught: unknown;
      try {
        new Memory({ userId } as never);
      } catch (error) {
        caught = error;
      }
      expect(MemError.hasCode(caught, 'MEM_CONFIG')).toBe(true);
      expect((caught as MemConfigError).issues.map((i) => i.path)).toEqual(['userId']);
    }
  });
});
