import { MemError, MemSummarizerError } from '@mem/core';
import { renderTranscript, type SummarizeOptions, type SummarizeUsage } from '@mem/core/summarize';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ProviderServer, startProviderServer } from '../__fixtures__/provider-server.ts';
import { openAIChatModel } from '../openai.ts';
import { ProviderError } from '../provider-error.ts';
import { type FakeCall, fakeCodLlm, refundConversation } from './__fixtures__/fake-cod-llm.ts';
import { createChainOfDensitySummarizer } from './chain-of-density-summarizer.ts';

let server: ProviderServer;
let llm: ReturnType<typeof fakeCodLlm>;
/** Replies by request number (1-based) that replace the fake LLM's answer. */
let faults: Map<number, string | 'truncate'>;
beforeAll(async () => {
  server = await startProviderServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.reset();
  llm = fakeCodLlm();
  faults = new Map();
  server.respondWith((request) => {
    const answer = llm.respond(request);
    // Plans made now apply to the next request.
    if (faults.get(server.requests.length + 1) === 'truncate') server.plan({ truncated: true });
    const fault = faults.get(server.requests.length);
    return fault === undefined || fault === 'truncate' ? answer : fault;
  });
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
  loops: 3,
  ...extra,
});
const passes = (calls: FakeCall[]) => calls.map((c) => c.pass);

describe('Chain of Density on malformed replies, truncation, errors and aborts', () => {
  it('retries a malformed pass once with the same prompt and goes on', async () => {
    faults.set(2, 'Sure, here is a denser summary: Priya wants a refund.');
    const reports: SummarizeUsage[] = [];
    const result = await createChainOfDensitySummarizer({ model: model() }).summarize(
      transcript,
      options({ onUsage: (u) => reports.push(u) }),
    );
    expect(passes(llm.calls)).toEqual([1, 2, 2, 3]);
    expect(llm.calls[2]?.prompt).toBe(llm.calls[1]?.prompt);
    expect(result.passes).toBe(3);
    expect(result.text).toBe(llm.calls[3]?.summary);
    expect(reports).toHaveLength(4); // the malformed call's usage too
    expect(result.usage?.inputTokens).toBe(reports.reduce((s, u) => s + u.inputTokens, 0));
  });

  it('keeps the last good pass when a later pass stays malformed, and says so', async () => {
    faults.set(3, '{"missing_entities": ["x"], "summary": "wrong key"}');
    faults.set(4, '{"missing_entities": ["x"], "denser_summary": ""}');
    const failures: [unknown, number][] = [];
    const result = await createChainOfDensitySummarizer({
      model: model(),
      onPassFailure: (error, pass) => failures.push([error, pass]),
    }).summarize(transcript, options());
    expect(server.requests).toHaveLength(4); // no pass 4 after pass 3 failed
    expect(result.passes).toBe(2);
    expect(result.text).toBe(llm.calls[1]?.summary);
    expect(failures).toHaveLength(1);
    const [error, pass] = failures[0]!;
    expect(pass).toBe(3);
    expect(error).toBeInstanceOf(MemSummarizerError);
    expect((error as Error).message).toMatch(/pass 3 of 3.*after 2 attempts.*empty/);
  });

  it('throws MemSummarizerError with the parse error as cause when pass 1 stays malformed', async () => {
    faults.set(1, 'not json at all');
    faults.set(2, '```json\n{"entities": [], "summary": "cut off');
    const reports: SummarizeUsage[] = [];
    const error = await createChainOfDensitySummarizer({ model: model() })
      .summarize(transcript, options({ onUsage: (u) => reports.push(u) }))
      .catch((e: unknown) => e);
    expect(MemError.isInstance(error) && error.code).toBe('MEM_SUMMARIZER');
    expect((error as Error).message).toMatch(/^\[mem\/summarizers\] .*pass 1 of 3.*invalid JSON/);
    expect((error as Error).cause).toBeInstanceOf(SyntaxError);
    expect(server.requests).toHaveLength(2);
    expect(reports).toHaveLength(2);
  });

  it('treats a truncated reply (finish_reason length) as malformed', async () => {
    faults.set(2, 'truncate');
    const once = await createChainOfDensitySummarizer({ model: model() }).summarize(
      transcript,
      options(),
    );
    expect(passes(llm.calls)).toEqual([1, 2, 2, 3]);
    expect(once.passes).toBe(3);

    server.reset();
    server.respondWith((request) => {
      if (server.requests.length >= 1) server.plan({ truncated: true });
      return llm.respond(request);
    });
    llm.calls.length = 0;
    const truncated = await createChainOfDensitySummarizer({ model: model() }).summarize(
      transcript,
      options(),
    );
    expect(passes(llm.calls)).toEqual([1, 2, 2]);
    expect(truncated).toMatchObject({ passes: 1, text: llm.calls[0]?.summary });
  });

  it('retries per retryMalformed: 0 gives up at once', async () => {
    faults.set(1, '[]');
    const error = await createChainOfDensitySummarizer({ model: model(), retryMalformed: 0 })
      .summarize(transcript, options())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MemSummarizerError);
    expect((error as Error).message).toMatch(/after 1 attempt \(no JSON object/);
    expect(server.requests).toHaveLength(1);
  });

  it('keeps the previous pass on a provider error in a later pass, and throws on pass 1', async () => {
    server.plan({ status: 400 });
    const first = await createChainOfDensitySummarizer({ model: model() })
      .summarize(transcript, options())
      .catch((e: unknown) => e);
    expect(first).toBeInstanceOf(MemSummarizerError);
    expect((first as Error).message).toMatch(/pass 1 of 3 failed/);
    expect((first as Error).cause).toBeInstanceOf(ProviderError);
    expect(server.requests).toHaveLength(1); // a provider error is not a malformed reply

    server.reset();
    server.respondWith((request) => {
      if (server.requests.length === 1) server.plan({ status: 500 });
      return llm.respond(request);
    });
    llm.calls.length = 0;
    const failures: unknown[] = [];
    const kept = await createChainOfDensitySummarizer({
      model: model(),
      onPassFailure: (error) => failures.push(error),
    }).summarize(transcript, options());
    expect(kept).toMatchObject({ passes: 1, text: llm.calls[0]?.summary });
    expect(server.requests).toHaveLength(2); // provider retries are withRetries' job
    expect((failures[0] as Error).cause).toBeInstanceOf(ProviderError);
  });

  it('propagates an abort during a call at once, without retrying or keeping a pass', async () => {
    const controller = new AbortController();
    server.respondWith((request) => {
      if (server.requests.length === 1) server.plan({ hang: true });
      return llm.respond(request);
    });
    const pending = createChainOfDensitySummarizer({ model: model() }).summarize(
      transcript,
      options({ signal: controller.signal }),
    );
    while (server.requests.length < 2) await new Promise((r) => setTimeout(r, 5));
    controller.abort(new Error('deadline'));
    const error = await pending.catch((e: unknown) => e);
    expect(controller.signal.aborted).toBe(true);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).kind).toBe('aborted');
    expect(server.requests).toHaveLength(2);
  });

  it('stops between passes when the signal fires after a call returns', async () => {
    const controller = new AbortController();
    const reason = new Error('caller cancelled');
    const error = await createChainOfDensitySummarizer({ model: model() })
      .summarize(
        transcript,
        options({ signal: controller.signal, onUsage: () => controller.abort(reason) }),
      )
      .catch((e: unknown) => e);
    expect(error).toBe(reason);
    expect(server.requests).toHaveLength(1);
  });
});
