import {
  createInMemoryStore,
  createMemoryEngine,
  type MemoryEngine,
  MemValidationError,
} from '@mem/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { memoryMiddleware } from '../index.ts';
import { describeChangedHistory } from './middleware-spec-history.ts';
import { describeOverlappingCalls } from './middleware-spec-overlap.ts';
import { describeStreamEndings } from './middleware-spec-streams.ts';
import { describeUserMemory } from './middleware-spec-users.ts';
import {
  textResult,
  textStreamParts,
  toolCallResult,
  toolCallStreamParts,
} from './model-results.ts';
import { line, type MockModel, type Prompt, type SdkUnderTest } from './sdk-under-test.ts';

export { line, type SdkUnderTest } from './sdk-under-test.ts';

const promptText = (prompt: Prompt) => JSON.stringify(prompt);

export function describeMemoryMiddleware(name: string, sdk: SdkUnderTest): void {
  const setup = (profile: object = {}) => {
    const engine = createMemoryEngine({ store: createInMemoryStore(), profile });
    return { engine, session: engine.session('chat-1') };
  };
  const wrap = (engine: MemoryEngine, model: MockModel, sessionId: unknown = 'chat-1') =>
    sdk.wrapLanguageModel({
      model: model as never,
      middleware: memoryMiddleware({ engine, sessionId } as never) as never,
    });
  const stored = async (engine: MemoryEngine) =>
    (await engine.session('chat-1').messages()).map(line);
  const replies = (...texts: string[]) => texts.map((t) => textResult(t));
  const weather = () =>
    sdk.tool({
      description: 'Current weather in a city',
      inputSchema: z.object({ city: z.string() }),
      execute: async ({ city }: { city: string }) => ({ city, tempC: city === 'Paris' ? 18 : 9 }),
    });

  describe(`memoryMiddleware with ${name}`, () => {
    it('generateText: stores the question and the answer, and a later call sees them', async () => {
      const { engine } = setup();
      const model = new sdk.MockLanguageModel({
        doGenerate: replies('Hello Ada.', 'You are Ada.'),
      });
      const wrapped = wrap(engine, model);

      await sdk.generateText({ model: wrapped, system: 'Be brief.', prompt: "Hi, I'm Ada." });
      const second = await sdk.generateText({
        model: wrapped,
        system: 'Be brief.',
        prompt: 'What is my name?',
      });

      expect(second.text).toBe('You are Ada.');
      expect(await stored(engine)).toEqual([
        "user: Hi, I'm Ada.",
        'assistant: Hello Ada.',
        'user: What is my name?',
        'assistant: You are Ada.',
      ]);
      const prompt = model.doGenerateCalls[1]?.prompt ?? [];
      expect(prompt.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
      expect(prompt[0]).toEqual({ role: 'system', content: 'Be brief.' });
      expect(promptText(prompt)).toContain('Hello Ada.');
    });

    it('streamText: stores the streamed answer once the stream has finished', async () => {
      const { engine } = setup();
      const model = new sdk.MockLanguageModel({
        doStream: async () => ({
          stream: sdk.simulateReadableStream({ chunks: textStreamParts(['Hel', 'lo ', 'Ada.']) }),
        }),
      });
      const wrapped = wrap(engine, model);

      const result = sdk.streamText({ model: wrapped, prompt: "Hi, I'm Ada." });

      expect(await result.text).toBe('Hello Ada.');
      expect(await stored(engine)).toEqual(["user: Hi, I'm Ada.", 'assistant: Hello Ada.']);
    });

    it('a stream that fails stores no answer; the retried question is not stored twice', async () => {
      const { engine } = setup();
      const broken = new ReadableStream({
        start(controller) {
          for (const part of textStreamParts(['Hal']).slice(0, 3)) controller.enqueue(part);
          controller.error(new Error('connection reset'));
        },
      });
      const model = new sdk.MockLanguageModel({
        doStream: [
          { stream: broken },
          { stream: sdk.simulateReadableStream({ chunks: textStreamParts(['Hello.']) }) },
        ],
      });
      const wrapped = wrap(engine, model);
      const errors: unknown[] = [];

      await sdk
        .streamText({ model: wrapped, prompt: 'Hi', maxRetries: 0 })
        .consumeStream({ onError: (e) => errors.push(e) });
      expect(errors).not.toHaveLength(0);
      expect(await stored(engine)).toEqual(['user: Hi']);

      expect(await sdk.streamText({ model: wrapped, prompt: 'Hi' }).text).toBe('Hello.');
      expect(await stored(engine)).toEqual(['user: Hi', 'assistant: Hello.']);
    });

    it('keeps reasoning and its provider metadata, and sends them back later', async () => {
      const { engine } = setup();
      const model = new sdk.MockLanguageModel({
        doGenerate: [
          {
            ...textResult('42.'),
            content: [
              {
                type: 'reasoning',
                text: 'Six times seven.',
                providerMetadata: { p: { sig: 's1' } },
              },
              { type: 'text', text: '42.' },
            ],
          },
          textResult('Yes.'),
        ],
      });
      const wrapped = wrap(engine, model);

      await sdk.generateText({ model: wrapped, prompt: 'Six times seven?' });
      await sdk.generateText({ model: wrapped, prompt: 'Sure?' });

      expect(model.doGenerateCalls[1]?.prompt[1]).toEqual({
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'Six times seven.', providerOptions: { p: { sig: 's1' } } },
          { type: 'text', text: '42.' },
        ],
      });
    });

    it('a 3-step tool loop: every message is stored once, in order, and each step sees the last', async () => {
      const { engine } = setup();
      const model = new sdk.MockLanguageModel({
        doGenerate: [
          toolCallResult('call-1', 'weather', { city: 'Paris' }),
          toolCallResult('call-2', 'weather', { city: 'Oslo' }),
          textResult('Paris is warmer: 18°C against 9°C.'),
          textResult('You asked about Paris and Oslo.'),
        ],
      });
      const wrapped = wrap(engine, model);

      const result = await sdk.generateText({
        model: wrapped,
        prompt: 'Is Paris warmer than Oslo?',
        tools: { weather: weather() },
        stopWhen: sdk.stepCountIs(3),
      });

      expect(result.text).toBe('Paris is warmer: 18°C against 9°C.');
      expect(await stored(engine)).toEqual([
        'user: Is Paris warmer than Oslo?',
        'assistant:  -> weather#call-1 {"city":"Paris"}',
        'tool#call-1: {"city":"Paris","tempC":18}',
        'assistant:  -> weather#call-2 {"city":"Oslo"}',
        'tool#call-2: {"city":"Oslo","tempC":9}',
        'assistant: Paris is warmer: 18°C against 9°C.',
      ]);
      const step2 = model.doGenerateCalls[1]?.prompt ?? [];
      expect(step2.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
      expect(step2[2]?.content).toEqual([
        expect.objectContaining({
          type: 'tool-result',
          toolCallId: 'call-1',
          output: { type: 'json', value: { city: 'Paris', tempC: 18 } },
        }),
      ]);

      const again = await sdk.generateText({ model: wrapped, prompt: 'Which cities did I ask?' });
      expect(again.text).toBe('You asked about Paris and Oslo.');
      const next = model.doGenerateCalls[3]?.prompt ?? [];
      expect(next.map((m) => m.role)).toEqual([
        'user',
        'assistant',
        'tool',
        'assistant',
        'tool',
        'assistant',
        'user',
      ]);
      expect(await stored(engine)).toHaveLength(8);
    });

    it('a streamed tool loop stores the call, the result and the answer once', async () => {
      const { engine } = setup();
      const streams = [
        toolCallStreamParts('call-1', 'weather', { city: 'Paris' }),
        textStreamParts(['18°C in ', 'Paris.']),
      ];
      let n = 0;
      const model = new sdk.MockLanguageModel({
        doStream: async () => ({
          stream: sdk.simulateReadableStream({ chunks: streams[n++] ?? [] }),
        }),
      });

      const result = sdk.streamText({
        model: wrap(engine, model),
        prompt: 'Weather in Paris?',
        tools: { weather: weather() },
        stopWhen: sdk.stepCountIs(2),
      });

      expect(await result.text).toBe('18°C in Paris.');
      expect(await stored(engine)).toEqual([
        'user: Weather in Paris?',
        'assistant:  -> weather#call-1 {"city":"Paris"}',
        'tool#call-1: {"city":"Paris","tempC":18}',
        'assistant: 18°C in Paris.',
      ]);
    });

    it('messages the caller sends again are not stored twice', async () => {
      const { engine } = setup();
      const model = new sdk.MockLanguageModel({ doGenerate: replies('Hello Ada.', 'Ada.') });
      const wrapped = wrap(engine, model);

      await sdk.generateText({ model: wrapped, prompt: "Hi, I'm Ada." });
      await sdk.generateText({
        model: wrapped,
        messages: [
          { role: 'user', content: "Hi, I'm Ada." },
          { role: 'assistant', content: 'Hello Ada.' },
          { role: 'user', content: 'Who am I?' },
        ],
      });

      expect(await stored(engine)).toEqual([
        "user: Hi, I'm Ada.",
        'assistant: Hello Ada.',
        'user: Who am I?',
        'assistant: Ada.',
      ]);
    });

    it('re-sent messages are recognised across a system message stored between them', async () => {
      const { engine, session } = setup();
      const model = new sdk.MockLanguageModel({ doGenerate: replies('Hello Ada.', 'Ada.') });
      const wrapped = wrap(engine, model);

      await sdk.generateText({ model: wrapped, prompt: "Hi, I'm Ada." });
      await session.append({ role: 'system', content: 'Answer in one word.' });
      await sdk.generateText({
        model: wrapped,
        messages: [
          { role: 'user', content: "Hi, I'm Ada." },
          { role: 'assistant', content: 'Hello Ada.' },
          { role: 'user', content: 'Who am I?' },
        ],
      });

      expect(await stored(engine)).toEqual([
        "user: Hi, I'm Ada.",
        'assistant: Hello Ada.',
        'system: Answer in one word.',
        'user: Who am I?',
        'assistant: Ada.',
      ]);
    });

    it('reads only the newest messages of a long session, never all of it', async () => {
      const reads: Array<object | undefined> = [];
      const inner = createInMemoryStore();
      const store = new Proxy(inner, {
        get(target, key, receiver) {
          if (key !== 'read') return Reflect.get(target, key, receiver);
          return (id: string, options?: object) => {
            reads.push(options);
            return target.read(id, options);
          };
        },
      });
      const profile = {
        short_term_memory_strategy: [{ memory_strategy_id: 'max_tokens', memory_max_tokens: 500 }],
      };
      const engine = createMemoryEngine({ store, profile });
      const turns = Array.from({ length: 400 }, (_, i) => [
        { role: 'user' as const, content: `question ${i}` },
        { role: 'assistant' as const, content: `answer ${i}` },
      ]).flat();
      await engine.session('chat-1').append(turns);
      const model = new sdk.MockLanguageModel({ doGenerate: replies('Noted.') });

      reads.length = 0;
      await sdk.generateText({ model: wrap(engine, model), prompt: 'One more question.' });

      expect(reads.length).toBeGreaterThan(0);
      for (const options of reads) {
        const { afterSeq, limit } = (options ?? {}) as { afterSeq?: number; limit?: number };
        // A catch-up read after the cached seq, or a bounded tail read: never the whole session.
        expect(afterSeq !== undefined || (limit !== undefined && limit <= 256)).toBe(true);
      }
      expect((await engine.session('chat-1').messages({ last: 2 })).map(line)).toEqual([
        'user: One more question.',
        'assistant: Noted.',
      ]);
    });

    it('reads only as many stored messages as a re-sent history holds, and stores only its new question', async () => {
      const reads: Array<object | undefined> = [];
      const inner = createInMemoryStore();
      const store = new Proxy(inner, {
        get(target, key, receiver) {
          if (key !== 'read') return Reflect.get(target, key, receiver);
          return (id: string, options?: object) => {
            reads.push(options);
            return target.read(id, options);
          };
        },
      });
      const profile = {
        short_term_memory_strategy: [{ memory_strategy_id: 'max_tokens', memory_max_tokens: 500 }],
      };
      const engine = createMemoryEngine({ store, profile });
      // The app's own copy of the conversation: the newest 100 of 400 stored turns.
      const turns = Array.from({ length: 400 }, (_, i) => [
        { role: 'user' as const, content: `question ${i}` },
        { role: 'assistant' as const, content: `answer ${i}` },
      ]).flat();
      await engine.session('chat-1').append(turns);
      const model = new sdk.MockLanguageModel({ doGenerate: replies('Noted.') });
      const history = turns.slice(-200);

      reads.length = 0;
      await sdk.generateText({
        model: wrap(engine, model),
        messages: [...history, { role: 'user', content: 'One more question.' }],
      });

      expect(reads.length).toBeGreaterThan(0);
      for (const options of reads) {
        const { afterSeq, limit } = (options ?? {}) as { afterSeq?: number; limit?: number };
        // A catch-up read, or a tail read no longer than the prompt (201 messages).
        expect(afterSeq !== undefined || (limit !== undefined && limit <= 201)).toBe(true);
      }
      const newest = await engine.session('chat-1').messages({ last: 4 });
      expect(newest.map(line)).toEqual([
        'user: question 399',
        'assistant: answer 399',
        'user: One more question.',
        'assistant: Noted.',
      ]);
      expect(await engine.session('chat-1').messages()).toHaveLength(802);
    });

    it('stores a user file once and sends its bytes back in later calls', async () => {
      const { engine, session } = setup();
      const model = new sdk.MockLanguageModel({ doGenerate: replies('A red pixel.', 'Yes.') });
      const wrapped = wrap(engine, model);
      const image = new Uint8Array([137, 80, 78, 71]);
      const question = [
        { type: 'text', text: 'What is this?' },
        { type: 'file', data: image, mediaType: 'image/png' },
      ];

      await sdk.generateText({ model: wrapped, messages: [{ role: 'user', content: question }] });
      await sdk.generateText({
        model: wrapped,
        messages: [
          { role: 'user', content: question },
          { role: 'assistant', content: 'A red pixel.' },
          { role: 'user', content: 'Sure?' },
        ],
      });

      expect((await session.messages()).map(line)).toEqual([
        'user: What is this?',
        'assistant: A red pixel.',
        'user: Sure?',
        'assistant: Yes.',
      ]);
      const first = (model.doGenerateCalls[1]?.prompt ?? [])[0];
      expect(JSON.stringify(first)).toBe(JSON.stringify(model.doGenerateCalls[0]?.prompt[0]));
      expect(JSON.stringify(first)).toContain('"mediaType":"image/png"');
    });

    it('recognises re-sent messages after a compaction summarized them', async () => {
      const { engine, session } = setup({
        long_term_memory_strategy: [
          { long_term_memory_id: 'summarizer', interaction_threshold_qty: 1, interaction_keep: 1 },
        ],
      });
      const model = new sdk.MockLanguageModel({ doGenerate: replies('One.', 'Two.', 'Three.') });
      const wrapped = wrap(engine, model);
      await sdk.generateText({ model: wrapped, prompt: 'First?' });
      await sdk.generateText({ model: wrapped, prompt: 'Second?' });
      await engine.idle();
      expect(await session.summaries()).toHaveLength(1);

      await sdk.generateText({
        model: wrapped,
        messages: [
          { role: 'user', content: 'First?' },
          { role: 'assistant', content: 'One.' },
          { role: 'user', content: 'Second?' },
          { role: 'assistant', content: 'Two.' },
          { role: 'user', content: 'Third?' },
        ],
      });

      expect((await session.history()).map(line)).toEqual([
        'user: First?',
        'assistant: One.',
        'user: Second?',
        'assistant: Two.',
        'user: Third?',
        'assistant: Three.',
      ]);
    });

    it("passes the provider's reported input tokens to mem's input_tokens_threshold", async () => {
      const profile = {
        long_term_memory_strategy: [
          {
            long_term_memory_id: 'neuralyzer',
            input_tokens_threshold: 1000,
            interaction_keep: 1,
          },
        ],
      };
      const run = async (inputTokens: number) => {
        const { engine } = setup(profile);
        const model = new sdk.MockLanguageModel({
          doGenerate: [textResult('One.', inputTokens), textResult('Two.', inputTokens)],
        });
        const wrapped = wrap(engine, model);
        await sdk.generateText({ model: wrapped, prompt: 'First?' });
        await sdk.generateText({ model: wrapped, prompt: 'Second?' });
        await engine.idle();
        return stored(engine);
      };

      expect(await run(50)).toEqual([
        'user: First?',
        'assistant: One.',
        'user: Second?',
        'assistant: Two.',
      ]);
      expect(await run(5000)).toEqual(['user: Second?', 'assistant: Two.']);
    });

    it('finds the session of each call through a sessionId function', async () => {
      const engine = createMemoryEngine({ store: createInMemoryStore(), profile: {} });
      const model = new sdk.MockLanguageModel({ doGenerate: replies('A.', 'B.') });
      const wrapped = wrap(engine, model, (params: { headers?: Record<string, string> }) =>
        String(params.headers?.['x-user']),
      );

      await sdk.generateText({ model: wrapped, prompt: 'Hi', headers: { 'x-user': 'ada' } });
      await sdk.generateText({ model: wrapped, prompt: 'Hi', headers: { 'x-user': 'bob' } });

      expect((await engine.session('ada').messages()).map(line)).toEqual([
        'user: Hi',
        'assistant: A.',
      ]);
      expect((await engine.session('bob').messages()).map(line)).toEqual([
        'user: Hi',
        'assistant: B.',
      ]);
    });

    it('refuses a sessionId function that returns no id, naming the field', async () => {
      const { engine } = setup();
      const model = new sdk.MockLanguageModel({ doGenerate: replies('A.') });

      const call = sdk.generateText({ model: wrap(engine, model, () => ''), prompt: 'Hi' });

      await expect(call).rejects.toSatisfy(
        (e: unknown) =>
          e instanceof MemValidationError && e.field === 'sessionId (returned by the function)',
      );
      expect(model.doGenerateCalls).toHaveLength(0);
    });
  });

  describeOverlappingCalls(name, sdk);
  describeChangedHistory(name, sdk);
  describeStreamEndings(name, sdk);
  describeUserMemory(name, sdk);
}
