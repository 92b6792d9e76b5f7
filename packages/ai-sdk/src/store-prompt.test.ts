import {
  createMemoryEngine,
  MemError,
  MemValidationError,
  type Message,
  type Store,
} from '@mem/core';
import { describe, expect, it } from 'vitest';
import { line, storeKinds } from './__fixtures__/sdk-under-test.ts';
import { fromPrompt } from './prompt-messages.ts';
import { storePrompt } from './store-prompt.ts';

const said = (...texts: string[]): Message[] =>
  fromPrompt(
    texts.map((t, i) => ({
      role: i % 2 === 0 ? 'user' : 'assistant',
      content: [{ type: 'text', text: t }],
    })),
  );

for (const [storeName, createStore] of storeKinds()) {
  describe(`storePrompt on ${storeName}`, () => {
    it("puts back another writer's message a replacing pop took, and reports the conflict", async () => {
      const inner = createStore();
      const other = createMemoryEngine({ store: inner, profile: {} }).session('chat-1');
      let pops = 0;
      // Another process appends just before this call's first pop runs.
      const store: Store = new Proxy(inner, {
        get(target, key, receiver) {
          if (key !== 'pop') return Reflect.get(target, key, receiver);
          return async (id: string) => {
            if (pops++ === 0) await other.append({ role: 'user', content: 'from elsewhere' });
            return target.pop(id);
          };
        },
      });
      const session = createMemoryEngine({ store, profile: {} }).session('chat-1');
      await session.append(said('u1', 'a1', 'u2', 'a2'));

      const call = storePrompt(session, said('u1', 'a1', 'u2 edited'), 'replace');

      await expect(call).rejects.toSatisfy(
        (e: unknown) =>
          MemError.isInstance(e) &&
          e.code === 'MEM_STORE_CONFLICT' &&
          (e as { reason?: string }).reason === 'concurrent-write',
      );
      const lines = (await session.messages()).map(line);
      expect(lines).toEqual([
        'user: u1',
        'assistant: a1',
        'user: u2',
        'assistant: a2',
        'user: from elsewhere',
      ]);
    });

    it('refuses to replace messages a system message was stored after, and changes nothing', async () => {
      const session = createMemoryEngine({ store: createStore(), profile: {} }).session('chat-1');
      await session.append(said('u1', 'a1', 'u2', 'a2'));
      await session.append({ role: 'system', content: 'Answer in French.' });

      const call = storePrompt(session, said('u1', 'a1', 'u2 edited'), 'replace');

      await expect(call).rejects.toSatisfy(
        (e: unknown) =>
          e instanceof MemValidationError && /a system message is stored after/.test(e.message),
      );
      expect(await session.messages()).toHaveLength(5);
    });

    it('refuses a tool result whose call is not the newest stored message', async () => {
      const session = createMemoryEngine({ store: createStore(), profile: {} }).session('chat-1');
      await session.append(said('u1', 'a1'));
      const result = fromPrompt([
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: 'call-9',
              toolName: 'weather',
              output: { type: 'json', value: 1 },
            },
          ],
        },
      ]);

      await expect(storePrompt(session, result, 'replace')).rejects.toSatisfy(
        (e: unknown) => MemError.isInstance(e) && e.name === 'MemHistoryConflictError',
      );
      expect((await session.messages()).map(line)).toEqual(['user: u1', 'assistant: a1']);
    });
  });
}
