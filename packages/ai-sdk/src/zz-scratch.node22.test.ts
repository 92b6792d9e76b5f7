import { createInMemoryStore, createMemoryEngine } from '@mem/core';
import { streamText as st6, wrapLanguageModel as w6 } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { streamText as st7, wrapLanguageModel as w7 } from 'ai-v7';
import { MockLanguageModelV4 } from 'ai-v7/test';
import { it } from 'vitest';
import { textStreamParts } from './__fixtures__/model-results.ts';
import { memoryMiddleware } from './index.ts';
import { sessionLockLoad } from './session-lock.ts';

function hanging(parts: unknown[], log: string[]) {
  let i = 0;
  return new ReadableStream(
    {
      async pull(c) {
        log.push(`pull ${i}`);
        if (i < parts.length) c.enqueue(parts[i++]);
        else await new Promise(() => {});
      },
      cancel(r) {
        log.push(`cancel ${String(r)}`);
      },
    },
    { highWaterMark: 0 },
  );
}
for (const [name, streamText, wrap, Mock] of [
  ['6', st6, w6, MockLanguageModelV3],
  ['7', st7, w7, MockLanguageModelV4],
] as const) {
  it(`consumer cancel on hanging ${name}`, async () => {
    const log: string[] = [];
    const engine = createMemoryEngine({ store: createInMemoryStore(), profile: {} });
    const model = new (Mock as any)({
      doStream: async () => ({
        stream: hanging(textStreamParts(['a', 'b', 'c']).slice(0, 4), log),
      }),
    });
    const wrapped = (wrap as any)({
      model,
      middleware: memoryMiddleware({ engine, sessionId: 's', streamIdleTimeoutMs: 50 }),
    });
    const r = (streamText as any)({ model: wrapped, prompt: 'Hi' });
    const reader = r.textStream.getReader();
    console.log(await reader.read());
    await reader.cancel();
    await new Promise((res) => setTimeout(res, 300));
    console.log(name, 'load', sessionLockLoad(engine, 's'), log);
  });
}
