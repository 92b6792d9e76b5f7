import { createOpenAI } from '@ai-sdk/openai';
import Anthropic from '@anthropic-ai/sdk';
import { createTokenCounter, MemConfigError } from '@mem/core';
import {
  renderTranscript,
  runSummarizer,
  type SummarizeOptions,
  type SummarizeUsage,
} from '@mem/core/summarize';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  countTokens,
  type ProviderServer,
  startProviderServer,
} from '../__fixtures__/provider-server.ts';
import { aiSdkChatModel } from '../ai-sdk.ts';
import { anthropicChatModel } from '../anthropic.ts';
import { openAIChatModel } from '../openai.ts';
import { fakeCodLlm, refundConversation } from './__fixtures__/fake-cod-llm.ts';
import { createChainOfDensitySummarizer } from './chain-of-density-summarizer.ts';

let server: ProviderServer;
let llm: ReturnType<typeof fakeCodLlm>;
beforeAll(async () => {
  server = await startProviderServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.reset();
  llm = fakeCodLlm();
  server.respondWith(llm.respond);
});

const model = () =>
  openAIChatModel(new OpenAI({ apiKey: 'test', baseURL: `${server.url}/v1`, maxRetries: 0 }), {
    model: 'gpt-4o-mini',
  });
const transcript = renderTranscript(refundConversation());
const options = (extra: Partial<SummarizeOptions> = {}): SummarizeOptions => ({
  signal: new AbortController().signal,
  instructions: null,
  targetTokens: 100,
  loops: 4,
  ...extra,
});

describe('createChainOfDensitySummarizer over the openai SDK', () => {
  it('runs one call per pass, each refining the previous summary, and returns the last', async () => {
    const summarizer = createChainOfDensitySummarizer({ model: model() });
    expect(summarizer.capabilities).toEqual({ chainOfDensity: true });
    const result = await summarizer.summarize(transcript, options());

    expect(llm.calls.map((c) => [c.pass, c.loops])).toEqual([
      [1, 4],
      [2, 4],
      [3, 4],
      [4, 4],
    ]);
    expect(llm.calls[0]?.previousSummary).toBeUndefined();
    for (let i = 1; i < llm.calls.length; i++) {
      expect(llm.calls[i]?.previousSummary).toBe(llm.calls[i - 1]?.summary);
    }
    expect(result.text).toBe(
      'A conversation about AF-1042; 2026-03-06; lookup_order; €480; refund_order; card expired; 2026-03-07.',
    );
    expect(result.passes).toBe(4);
    // Pass 2 was answered in prose around a ```json fence: only the summary is kept.
    expect(result.text).not.toMatch(/Here is|```|missing/i);
  });

  it('sends the transcript, the target length, the entities so far and JSON mode', async () => {
    await createChainOfDensitySummarizer({ model: model() }).summarize(
      transcript,
      options({ loops: 3, targetTokens: 80 }),
    );
    const third = llm.calls[2]?.prompt ?? '';
    expect(third).toContain(`<transcript>\n${transcript}\n</transcript>`);
    expect(third).toContain('about 80 tokens (roughly 60 words)');
    expect(third).toContain('keep all of them): AF-1042; 2026-03-06; lookup_order');
    for (const request of server.requests) {
      expect(request.body).toMatchObject({
        model: 'gpt-4o-mini',
        temperature: 0,
        max_tokens: 2 * 80 + 256,
        response_format: { type: 'json_object' },
      });
    }
  });

  it('puts the instructions in every system prompt as guidance, and none when null', async () => {
    const summarizer = createChainOfDensitySummarizer({ model: model() });
    await summarizer.summarize(transcript, options({ loops: 2, instructions: 'Keep order ids.' }));
    await summarizer.summarize(transcript, options({ loops: 1, instructions: null }));
    const [first, second, withoutInstructions] = llm.calls.map((c) => c.system);
    expect(first).toContain('<user_instructions>\nKeep order ids.\n</user_instructions>');
    expect(second).toBe(first);
    expect(withoutInstructions).not.toContain('user_instructions');
    expect(withoutInstructions).toContain('Reply format: a single JSON object');
  });

  it("reports each call's usage through onUsage as it returns, and the total", async () => {
    const reports: SummarizeUsage[] = [];
    const seen: number[] = [];
    const result = await createChainOfDensitySummarizer({ model: model() }).summarize(
      transcript,
      options({
        loops: 3,
        onUsage: (u) => {
          reports.push(u);
          seen.push(server.requests.length);
        },
      }),
    );
    // The fixture counts one token per 4 characters of system + prompt.
    const expected = llm.calls.map((c) => ({
      inputTokens: countTokens(c.system + c.prompt),
      outputTokens: expect.any(Number),
      model: 'openai:gpt-4o-mini',
    }));
    expect(expected).toHaveLength(3);
    expect(reports).toEqual(expected);
    expect(seen).toEqual([1, 2, 3]); // reported before the next call was made
    expect(result.usage).toEqual({
      inputTokens: reports.reduce((s, u) => s + u.inputTokens, 0),
      outputTokens: reports.reduce((s, u) => s + u.outputTokens, 0),
      model: 'openai:gpt-4o-mini',
    });
  });

  it('runs all passes in one call in single-call mode', async () => {
    const result = await createChainOfDensitySummarizer({
      model: model(),
      mode: 'single-call',
    }).summarize(transcript, options({ loops: 3 }));
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.body?.max_tokens).toBe(3 * (2 * 100 + 256));
    expect(result.passes).toBe(3);
    expect(result.text).toBe(
      'A conversation about AF-1042; 2026-03-06; lookup_order; €480; refund_order.',
    );
  });

  it("is used whole by core's runSummarizer, which reports every call", async () => {
    const messages = refundConversation();
    const counter = createTokenCounter({ model: 'gpt-4o' });
    const reports: SummarizeUsage[] = [];
    const outcome = await runSummarizer({
      summarizer: createChainOfDensitySummarizer({ model: model() }),
      messages,
      instructions: 'Mention the customer.',
      loops: 3,
      targetTokens: 60,
      timeoutMs: 30_000,
      counter,
      originalTokens: 10_000,
      onUsage: (u) => reports.push(u),
    });
    expect(outcome).toMatchObject({ source: 'summarizer', passes: 3 });
    expect(outcome.text).toBe(llm.calls[2]?.summary);
    expect(llm.calls[0]?.prompt).toContain(`<transcript>\n${renderTranscript(messages)}\n`);
    expect(reports).toHaveLength(3);
    expect(outcome.usage?.inputTokens).toBe(reports.reduce((s, u) => s + u.inputTokens, 0));
  });

  it('gives the same summary over the Anthropic SDK and the AI SDK', async () => {
    const anthropic = anthropicChatModel(
      new Anthropic({ apiKey: 'test', baseURL: server.url, maxRetries: 0 }),
      { model: 'claude-haiku-4-5' },
    );
    const aiSdk = aiSdkChatModel(
      createOpenAI({ apiKey: 'test', baseURL: `${server.url}/v1` }).chat('gpt-4o-mini'),
    );
    for (const chat of [anthropic, aiSdk]) {
      const result = await createChainOfDensitySummarizer({ model: chat }).summarize(
        transcript,
        options({ loops: 2 }),
      );
      expect(result).toMatchObject({
        passes: 2,
        text: 'A conversation about AF-1042; 2026-03-06; lookup_order.',
        usage: { model: chat.id },
      });
    }
    expect(server.requests.map((r) => r.path)).toEqual([
      '/v1/messages',
      '/v1/messages',
      '/v1/chat/completions',
      '/v1/chat/completions',
    ]);
  });

  it('rejects bad options with one MemConfigError listing each', () => {
    const bad = () =>
      createChainOfDensitySummarizer({
        model: { id: 'x' } as never,
        retryMalformed: -1,
        temperature: 5,
      });
    let error: unknown;
    try {
      bad();
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(MemConfigError);
    expect((error as MemConfigError).issues.map((i) => i.path).sort()).toEqual([
      'model',
      'retryMalformed',
      'temperature',
    ]);
  });
});
