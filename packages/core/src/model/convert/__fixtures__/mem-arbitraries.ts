import fc from 'fast-check';
import type { ContentPart, Message, ToolCall } from '../../message.ts';

type Content = string | ContentPart[];

/** What a wire format can carry, as mem arbitraries: used to check mem -> wire -> mem. */
export interface MemShape {
  system: fc.Arbitrary<Content>;
  user: fc.Arbitrary<Content>;
  /** Content of an assistant message without tool calls. */
  reply: fc.Arbitrary<Content>;
  /** Content of an assistant message with tool calls. */
  callContent: fc.Arbitrary<Content>;
  /** Tool call arguments as the format gives them back. */
  args: fc.Arbitrary<string>;
  tool: fc.Arbitrary<{ content: Content; isError?: boolean }>;
  /** Whether the format has participant names. */
  names: boolean;
  /** A system message between turns (formats that keep it in place). */
  midSystem: boolean;
}

export const words = fc.string({ unit: 'grapheme', maxLength: 30 });
export const textPart = words.map((text): ContentPart => ({ type: 'text', text }));
export const base64 = fc.base64String({ minLength: 4, maxLength: 24 });
export const httpsUrl = fc.webUrl({ validSchemes: ['https'] });
const toolNames = fc.constantFrom('search_orders', 'get_weather', 'run_sql', 'send_email');
export const jsonObjectArgs = fc
  .dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 })
  .map((value) => JSON.stringify(value));

interface Round {
  calls: { name: string; args: string }[];
  content: Content;
  results: { content: Content; isError?: boolean }[];
}

/** Conversations with tool rounds whose messages all fit `shape`. */
export function memConversation(shape: MemShape): fc.Arbitrary<Message[]> {
  const name = shape.names
    ? fc.option(fc.stringMatching(/^[a-z]{1,8}$/), { nil: undefined })
    : fc.constant(undefined);
  const round = fc.integer({ min: 1, max: 3 }).chain((n) =>
    fc.record({
      calls: fc.array(fc.record({ name: toolNames, args: shape.args }), {
        minLength: n,
        maxLength: n,
      }),
      content: shape.callContent,
      results: fc.array(shape.tool, { minLength: n, maxLength: n }),
    }),
  );
  const turn = fc.record({
    user: shape.user,
    userName: name,
    rounds: fc.array(round, { maxLength: 2 }),
    reply: fc.option(shape.reply, { nil: undefined }),
    replyName: name,
    system: shape.midSystem ? fc.option(shape.system, { nil: undefined }) : fc.constant(undefined),
  });
  return fc
    .record({
      system: fc.option(shape.system, { nil: undefined }),
      turns: fc.array(turn, { minLength: 1, maxLength: 3 }),
    })
    .map(({ system, turns }) => {
      const out: Omit<Message, 'id' | 'createdAt'>[] = [];
      let callCount = 0;
      if (system !== undefined) out.push({ role: 'system', content: system });
      for (const t of turns) {
        out.push(withName({ role: 'user', content: t.user }, t.userName));
        for (const r of t.rounds as Round[]) {
          const toolCalls: ToolCall[] = r.calls.map((c) => ({
            id: `call_${++callCount}`,
            name: c.name,
            arguments: c.args,
          }));
          out.push({ role: 'assistant', content: r.content, toolCalls });
          toolCalls.forEach((call, k) => {
            const result = r.results[k]!;
            const message: Omit<Message, 'id' | 'createdAt'> = {
              role: 'tool',
              content: result.content,
              toolCallId: call.id,
              toolName: call.name,
            };
            if (result.isError !== undefined) message.isError = result.isError;
            out.push(message);
          });
        }
        if (t.reply !== undefined)
          out.push(withName({ role: 'assistant', content: t.reply }, t.replyName));
        if (t.system !== undefined) out.push({ role: 'system', content: t.system });
      }
      return toPlain(out.map((m, i) => ({ id: `m${i}`, createdAt: 1_700_000_000_000 + i, ...m })));
    });
}

type Fields = Omit<Message, 'id' | 'createdAt'>;

function withName(message: Fields, name: string | undefined): Fields {
  return name === undefined ? message : { ...message, name };
}

/**
 * The value with null-prototype objects (which fast-check makes) rebuilt as object literals,
 * so `toStrictEqual` compares like with like.
 */
export function toPlain<T>(value: T): T {
  if (Array.isArray(value)) return value.map(toPlain) as T;
  if (typeof value !== 'object' || value === null) return value;
  const proto = Object.getPrototypeOf(value);
  if (proto !== null && proto !== Object.prototype) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toPlain(v)])) as T;
}

/** The fields mem -> wire -> mem must keep. */
export function essentials(
  messages: readonly Message[],
  options: { names: boolean; isError: boolean },
) {
  return messages.map((m) => ({
    role: m.role,
    content: m.content,
    toolCalls: m.toolCalls,
    toolCallId: m.toolCallId,
    toolName: m.toolName,
    isError: options.isError ? m.isError === true : undefined,
    name: options.names ? m.name : undefined,
  }));
}

/** Conversion options that hand back the ids and times of `messages`, in order. */
export function sameIdsAs(messages: readonly Message[]) {
  let i = 0;
  let j = 0;
  return {
    generateId: () => messages[i++]?.id ?? 'extra',
    now: () => messages[j++]?.createdAt ?? 0,
  };
}
