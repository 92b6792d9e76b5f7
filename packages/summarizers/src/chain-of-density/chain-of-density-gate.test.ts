import { MemSummarizerError } from '@mem/core';
import { renderTranscript, type SummarizeOptions, type SummaryGate } from '@mem/core/summarize';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ProviderServer, startProviderServer } from '../__fixtures__/provider-server.ts';
import { openAIChatModel } from '../openai.ts';
import { fakeCodLlm, refundConversation } from './__fixtures__/fake-cod-llm.ts';
import { createChainOfDensitySummarizer } from './chain-of-density-summarizer.ts';

/*
 * Issue 23: the engine's summaryGate reaches Chain of Density through the summarize options, so
 * each pass is checked with the gate core will apply, not with the default one.
 */

let server: ProviderServer;
let llm: ReturnType<typeof fakeCodLlm>;
/** Every pass 1's reply, when set, replaces the fake LLM's. */
let firstReply: string | undefined;
beforeAll(async () => {
  server = await startProviderServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.reset();
  llm = fakeCodLlm();
  firstReply = undefined;
  server.respondWith((request) => {
    const answer = llm.respond(request);
    return llm.calls.at(-1)?.pass === 1 && firstReply !== undefined ? firstReply : answer;
  });
});

const summarizer = () =>
  createChainOfDensitySummarizer({
    model: openAIChatModel(
      new OpenAI({ apiKey: 'test', baseURL: `${server.url}/v1`, maxRetries: 0 }),
      { model: 'gpt-4o-mini' },
    ),
    retryMalformed: 0,
  });
const transcript = renderTranscript(refundConversation());
const options = (summaryGate?: SummaryGate, loops = 2): SummarizeOptions => ({
  signal: new AbortController().signal,
  instructions: null,
  targetTokens: 100,
  loops,
  ...(summaryGate === undefined ? {} : { summaryGate }),
});
const unrelated = JSON.stringify({
  entities: [],
  summary: 'The quarterly weather report for Reykjavik predicts sunshine and mild winds.',
});

describe('Chain of Density checks each pass with the summaryGate it is given', () => {
  it("rejects an off-topic pass by default, and keeps it with summaryGate 'errors-only'", async () => {
    firstReply = unrelated;
    const error = await summarizer()
      .summarize(transcript, options())
      .catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/pass 1 of 2.*unusable.*not about the conversation/);
    const result = await summarizer().summarize(transcript, options('errors-only', 1));
    expect(result).toMatchObject({
      passes: 1,
      text: expect.stringMatching(/^The quarterly weather/),
    });
  });

  it('applies a gate function of the user, whose rejection reason reaches the error', async () => {
    const gate: SummaryGate = () => ({ usable: false, reason: 'is not in Portuguese' });
    const error = await summarizer()
      .summarize(transcript, options(gate))
      .catch((e: unknown) => e);
    expect((error as Error).message).toMatch(
      /rejected by the summaryGate function: is not in Portuguese/,
    );
  });

  it('throws a failing gate function’s MemSummarizerError as it is, without asking the model again', async () => {
    const gate: SummaryGate = () => {
      throw new Error('gate down');
    };
    const error = await summarizer()
      .summarize(transcript, options(gate))
      .catch((e: unknown) => e);
    expect(MemSummarizerError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(
      /^\[mem\/core\] the summaryGate function threw Error: gate down/,
    );
    expect(server.requests).toHaveLength(1);
  });
});
