import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { MemorySaver } from '@langchain/langgraph';
import { createMemoryEngine, MemValidationError, messageText } from '@mem/core';
import { createAgent } from 'langchain';
import { afterAll, describe, expect, it } from 'vitest';
import { getWeather, openAgent } from './__fixtures__/agent-run.ts';
import { AnsweringChatModel } from './__fixtures__/answering-chat-model.ts';
import { memMiddleware } from './mem-middleware.ts';

const dir = mkdtempSync(join(tmpdir(), 'mem-langchain-resend-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const profile = {
  short_term_memory_strategy: [{ memory_strategy_id: 'max_tokens', memory_max_tokens: 4000 }],
};

/** An agent whose callers pass whole message lists, as a stateless chat server does. */
function openChat() {
  const run = openAgent(join(dir, `chat-${files++}.db`), profile);
  const send = (messages: unknown[]) =>
    run.agent.invoke({ messages: messages as never }, { configurable: { thread_id: 'chat' } });
  const texts = async () => (await run.history('chat')).map((m) => `${m.role}: ${messageText(m)}`);
  return { ...run, send, texts };
}

describe('memMiddleware with re-sent history', () => {
  it('stores only the new turn when a run re-sends the previous result with a new question', async () => {
    const chat = openChat();
    const one = await chat.send([new HumanMessage('Weather in Porto?')]);
    await chat.send([...one.messages, new HumanMessage('And tomorrow?')]);
    expect(await chat.texts()).toEqual([
      'user: Weather in Porto?',
      'assistant: ',
      'tool: 18°C and sunny in Porto.',
      'assistant: Tool said: 18°C and sunny in Porto.',
      'user: And tomorrow?',
      'assistant: Answer to: And tomorrow?',
    ]);
    chat.close();
  });

  it('recognises a thread re-sent as plain role/content objects (fresh ids), and a client-side window', async () => {
    const chat = openChat();
    await chat.send([{ role: 'user', content: 'Hi' }]);
    await chat.send([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Answer to: Hi' },
      { role: 'user', content: 'Is it late?' },
    ]);
    await chat.send([
      { role: 'assistant', content: 'Answer to: Is it late?' }, // only the newest message
      { role: 'user', content: 'Thanks!' },
    ]);
    await chat.send([{ role: 'user', content: 'Thanks!' }]); // a lone repeat is a new turn
    expect(await chat.texts()).toEqual([
      'user: Hi',
      'assistant: Answer to: Hi',
      'user: Is it late?',
      'assistant: Answer to: Is it late?',
      'user: Thanks!',
      'assistant: Answer to: Thanks!',
      'user: Thanks!',
      'assistant: Answer to: Thanks!',
    ]);
    // The model saw each stored turn once.
    expect(chat.model.inputs.at(-1)?.map((m) => m.text)).toEqual([
      'Hi',
      'Answer to: Hi',
      'Is it late?',
      'Answer to: Is it late?',
      'Thanks!',
      'Answer to: Thanks!',
      'Thanks!',
    ]);
    chat.close();
  });

  it('refuses an edited earlier message, naming it, and stores nothing of that run', async () => {
    const chat = openChat();
    const one = await chat.send([new HumanMessage('My order is AF-1042.')]);
    const two = await chat.send([...one.messages, new HumanMessage('It arrived broken.')]);
    const before = await chat.texts();
    const edited = two.messages.map((m, i) =>
      i === 2 ? new HumanMessage({ id: m.id as string, content: 'It arrived late.' }) : m,
    );
    const error = await chat.send([...edited.slice(0, 3)]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MemValidationError);
    expect(error).toMatchObject({ field: 'messages[2]' });
    expect((error as Error).message).toContain('another thread_id');
    expect(await chat.texts()).toEqual(before);
    chat.close();
  });

  it('refuses a regenerated answer (the thread re-sent without it) when the list has no ids', async () => {
    const chat = openChat();
    await chat.send([{ role: 'user', content: 'Name a colour.' }]);
    await chat.send([{ role: 'user', content: 'Another one.' }]);
    const before = await chat.texts();
    const error = await chat
      .send([
        { role: 'user', content: 'Name a colour.' },
        { role: 'assistant', content: 'Answer to: Name a colour.' },
        { role: 'user', content: 'Another one.' },
      ])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MemValidationError);
    expect(error).toMatchObject({ field: 'messages[2]' });
    expect(await chat.texts()).toEqual(before);
    chat.close();
  });

  it('stores each message once under a checkpointer, also once a summary replaced older turns', async () => {
    const engine = createMemoryEngine({
      profile: {
        ...profile,
        long_term_memory_strategy: [
          { long_term_memory_id: 'summarizer', interaction_threshold_qty: 2, interaction_keep: 1 },
        ],
      },
    });
    const model = new AnsweringChatModel();
    const agent = createAgent({
      model,
      tools: [getWeather],
      middleware: [memMiddleware({ engine })],
      checkpointer: new MemorySaver(),
    });
    const config = { configurable: { thread_id: 'saved' } };
    for (const q of ['Weather in Oslo?', 'One', 'Two', 'Three']) {
      await agent.invoke({ messages: [new HumanMessage(q)] }, config);
      await engine.session('saved').idle();
    }
    expect(await engine.session('saved').summaries()).not.toEqual([]);
    const history = await engine.session('saved').history();
    expect(history.map((m) => m.role)).toEqual([
      ...['user', 'assistant', 'tool', 'assistant'],
      ...['user', 'assistant', 'user', 'assistant', 'user', 'assistant'],
    ]);
    // The model got mem's context (the summary in the system message), not the whole thread.
    const last = model.inputs.at(-1) ?? [];
    expect(last[0]?.type).toBe('system');
    expect(last.filter((m) => m.type !== 'system').map((m) => m.text)).toEqual([
      'Two',
      'Answer to: Two',
      'Three',
    ]);
    expect(last.some((m) => m instanceof AIMessage && m.tool_calls?.length)).toBe(false);
  });
});
