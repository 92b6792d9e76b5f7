import { afterEach, describe, expect, it } from 'vitest';
import { sequentialIds } from './__fixtures__/test-helpers.ts';
import { fromModelMessages, toModelMessages } from './ai-sdk.ts';
import { fromAnthropicMessages, toAnthropicMessages } from './anthropic.ts';
import { fromOpenAIMessages, toOpenAIMessages } from './openai.ts';
import { fromResponsesItems, toResponsesInput } from './responses.ts';

/*
 * JSON.parse makes a key named "__proto__" an own data property, like any other key. Every
 * converter carries such keys through mem and back as they were (in a typed part's extras or in
 * a verbatim part), and never lets one set an object's prototype or touch Object.prototype.
 */

const prototypeKeys = Object.getOwnPropertyNames(Object.prototype).sort();
const parse = (json: string): never => JSON.parse(json) as never;

/** Asserts the converted-back value serializes exactly as the input did, own `__proto__` keys included. */
function expectSameJson(back: unknown, input: unknown): void {
  expect(JSON.stringify(back)).toBe(JSON.stringify(input));
}

afterEach(() => {
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeKeys);
  expect(({} as Record<string, unknown>).x).toBeUndefined();
  expect(({} as Record<string, unknown>).role).toBeUndefined();
});

describe('own __proto__ keys are carried losslessly by every converter, without prototype pollution', () => {
  it('Anthropic: a text block with an own __proto__ key stays a typed text part, and comes back whole', () => {
    const input = parse(
      '{"messages":[{"role":"user","content":[{"type":"text","text":"hi","__proto__":{"x":1}}]},' +
        '{"role":"assistant","content":"ok","__proto__":{"role":"system"}}]}',
    );
    const mem = fromAnthropicMessages(input, sequentialIds());
    expect(mem[0]?.content).toStrictEqual([{ type: 'text', text: 'hi' }]);
    expect(Object.getPrototypeOf(mem[0]?.metadata?.['mem.anthropic.parts'])).toBe(Object.prototype);
    const back = toAnthropicMessages(mem);
    expectSameJson(back, input);
    expect(back.messages.map((m) => m.role)).toStrictEqual(['user', 'assistant']);
    expect(Object.getPrototypeOf(back.messages[1])).toBe(Object.prototype);
  });

  it('Responses: an item and a part with own __proto__ keys come back whole', () => {
    const items = parse(
      '[{"role":"user","content":[{"type":"input_text","text":"hi","__proto__":{"x":1}}],"__proto__":{"x":2}},' +
        '{"type":"function_call","call_id":"c1","name":"f","arguments":"{}","__proto__":{"x":3}},' +
        '{"type":"function_call_output","call_id":"c1","output":"done","__proto__":{"x":4}}]',
    );
    const back = toResponsesInput(fromResponsesItems(items, sequentialIds()));
    expectSameJson(back, items);
    for (const item of back) expect(Object.getPrototypeOf(item)).toBe(Object.prototype);
  });

  it('OpenAI Chat Completions: a message and a part with own __proto__ keys come back whole', () => {
    const messages = parse(
      '[{"role":"user","content":[{"type":"text","text":"hi","__proto__":{"x":1}}],"__proto__":{"x":2}},' +
        '{"role":"assistant","content":"ok","tool_calls":[{"id":"c1","type":"function",' +
        '"function":{"name":"f","arguments":"{}"},"__proto__":{"x":3}}],"__proto__":{"x":4}},' +
        '{"role":"tool","tool_call_id":"c1","content":"done","__proto__":{"x":5}}]',
    );
    const mem = fromOpenAIMessages(messages, sequentialIds());
    expect(mem[0]?.content).toStrictEqual([{ type: 'text', text: 'hi' }]);
    const back = toOpenAIMessages(mem);
    expectSameJson(back, messages);
    for (const m of back) expect(Object.getPrototypeOf(m)).toBe(Object.prototype);
  });

  it('AI SDK: a message, a part and a tool result with own __proto__ keys come back whole', () => {
    const messages = parse(
      '[{"role":"user","content":[{"type":"text","text":"hi","__proto__":{"x":1}}],"__proto__":{"x":2}},' +
        '{"role":"assistant","content":[{"type":"tool-call","toolCallId":"c1","toolName":"f",' +
        '"input":{"__proto__":{"x":3}},"__proto__":{"x":4}}]},' +
        '{"role":"tool","content":[{"type":"tool-result","toolCallId":"c1","toolName":"f",' +
        '"output":{"type":"json","value":{"__proto__":{"x":5}}},"__proto__":{"x":6}}],"__proto__":{"x":7}}]',
    );
    const mem = fromModelMessages(messages, sequentialIds());
    expect(mem[0]?.content).toStrictEqual([{ type: 'text', text: 'hi' }]);
    const back = toModelMessages(mem);
    expectSameJson(back, messages);
    for (const m of back) expect(Object.getPrototypeOf(m)).toBe(Object.prototype);
  });
});
