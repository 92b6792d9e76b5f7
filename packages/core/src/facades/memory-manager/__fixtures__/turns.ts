import type { MemoryManager } from '../memory-manager.ts';

/** One interaction: a question, a shell call and its result, an answer (4 entries). */
export async function addTurn(memory: MemoryManager, sessionId: string, i: number): Promise<void> {
  await memory.addUserMessage(
    sessionId,
    `Question ${i}: how do I configure route ${i} of the API?`,
  );
  await memory.addToolCall(sessionId, 'shell', { command: `cat routes/${i}.ts` });
  await memory.addToolResult(sessionId, 'shell', `export const route${i} = '/v1/items/${i}';`);
  await memory.addAssistantMessage(sessionId, `Answer ${i}: register route ${i} in the router.`);
}

export async function addTurns(
  memory: MemoryManager,
  sessionId: string,
  n: number,
  from = 0,
): Promise<void> {
  for (let i = from; i < from + n; i++) await addTurn(memory, sessionId, i);
}

/** A promise that resolves when `open` is called. */
export function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}
