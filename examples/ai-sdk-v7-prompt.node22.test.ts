import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type OpenAIServer, startOpenAIServer } from './test-support/openai-server.ts';

// The example is what an app on ai 7 writes (`ai`, `@ai-sdk/openai`); here those names are ai 7
// and @ai-sdk/openai 4 themselves (installed as `ai-v7`, `@ai-sdk/openai-v4`).
vi.mock('ai', () => import('ai-v7'));
vi.mock('@ai-sdk/openai', () => import('@ai-sdk/openai-v4'));

describe('ai-sdk-v7-prompt.ts (the @mem/core README converter example, ai 7)', () => {
  let server: OpenAIServer;
  let log: string[];

  beforeEach(async () => {
    server = await startOpenAIServer();
    vi.stubEnv('OPENAI_BASE_URL', server.baseURL);
    vi.stubEnv('OPENAI_API_KEY', 'sk-loopback-test');
    log = [];
    vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
      log.push(args.join(' '));
    });
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
    await server.close();
  });

  it('runs on ai 7: no InvalidPromptError, the provider gets the system content first', async () => {
    // Only ai 7 has result.responseMessages: on ai 6 the example's append would throw.
    await import('./ai-sdk-v7-prompt.ts');

    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.messages).toEqual([
      { role: 'system', content: 'You are the support agent of Acme.' },
      { role: 'user', content: 'My order AF-1042 arrived broken. What now?' },
    ]);
    expect(log).toEqual(['Reply 1.']);
  });
});
