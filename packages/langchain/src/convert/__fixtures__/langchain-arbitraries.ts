import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
} from '@langchain/core/messages';
import fc from 'fast-check';

/** JSON as a store gives it back (no -0, no undefined keys). */
const json = fc.jsonValue().map((v) => JSON.parse(JSON.stringify(v)) as unknown);
const jsonObject = fc
  .dictionary(fc.stringMatching(/^[a-z_]{1,8}$/), json, { maxKeys: 3 })
  .map((v) => JSON.parse(JSON.stringify(v)) as Record<string, unknown>);
const words = fc.string({ maxLength: 40 });
const name = fc.stringMatching(/^[a-z]{1,8}$/);
const id = fc.oneof(fc.uuid(), fc.stringMatching(/^[A-Za-z0-9_-]{1,20}$/));
const url = fc.oneof(
  name.map((n) => `https://example.com/${n}.png`),
  fc.base64String({ minLength: 4, maxLength: 24 }).map((b) => `data:image/png;base64,${b}`),
);

const textBlock = words.map((text) => ({ type: 'text', text }));
/** Blocks mem has typed parts for, and some it keeps verbatim. */
const block: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  textBlock,
  fc.record(
    {
      type: fc.constant('image_url'),
      image_url: fc.oneof(
        url,
        fc.record(
          { url, detail: fc.constantFrom('auto', 'low', 'high') },
          { requiredKeys: ['url'] },
        ),
      ),
    },
    { requiredKeys: ['type', 'image_url'] },
  ),
  fc.record({ type: fc.constant('image'), url, mimeType: fc.constant('image/png') }),
  fc.record({
    type: fc.constant('image'),
    data: fc.base64String({ minLength: 4, maxLength: 24 }),
    mimeType: fc.constantFrom('image/png', 'image/jpeg'),
  }),
  fc.record({ type: fc.constant('text'), text: words, id: name }),
  fc.record({ type: fc.constant('thinking'), thinking: words, signature: name }),
);
export const content = fc.oneof(words, fc.array(block, { maxLength: 4 }));

const common = fc.record(
  {
    content,
    id,
    name,
    additional_kwargs: jsonObject,
    response_metadata: jsonObject,
  },
  { requiredKeys: ['content'] },
);

const toolCall = fc.record(
  { id, name, args: jsonObject, type: fc.constant('tool_call' as const) },
  { requiredKeys: ['id', 'name', 'args'] },
);
const invalidToolCall = fc.record({
  type: fc.constant('invalid_tool_call' as const),
  id,
  name,
  args: words,
  error: words,
});
const usage = fc.tuple(fc.nat(10_000), fc.nat(10_000)).map(([input_tokens, output_tokens]) => ({
  input_tokens,
  output_tokens,
  total_tokens: input_tokens + output_tokens,
}));

export const humanMessage = common.map((f) => new HumanMessage(f as never));
export const systemMessage = common.map((f) => new SystemMessage(f as never));
export const aiMessage = fc
  .tuple(
    common,
    fc.record(
      {
        tool_calls: fc.uniqueArray(toolCall, { selector: (c) => c.id, maxLength: 3 }),
        invalid_tool_calls: fc.array(invalidToolCall, { maxLength: 2 }),
        usage_metadata: usage,
      },
      { requiredKeys: [] },
    ),
  )
  .map(([f, ai]) => new AIMessage({ ...f, ...ai } as never));
export const toolMessage = fc
  .tuple(
    common,
    fc.record(
      {
        tool_call_id: id,
        status: fc.constantFrom('success' as const, 'error' as const),
        artifact: json,
        metadata: jsonObject,
      },
      { requiredKeys: ['tool_call_id'] },
    ),
  )
  .map(([f, t]) => new ToolMessage({ ...f, ...t } as never));

export const langChainMessage: fc.Arbitrary<BaseMessage> = fc.oneof(
  humanMessage,
  systemMessage,
  aiMessage,
  toolMessage,
);

/** Every field a LangChain message carries, for comparing two messages. */
export function langChainFields(message: BaseMessage): Record<string, unknown> {
  const m = message as BaseMessage & Record<string, unknown>;
  const out: Record<string, unknown> = {
    class: message.constructor.name,
    type: message.type,
    content: m.content,
    id: m.id,
    name: m.name,
    additional_kwargs: m.additional_kwargs,
    response_metadata: m.response_metadata,
  };
  for (const key of [
    'tool_calls',
    'invalid_tool_calls',
    'usage_metadata',
    'tool_call_id',
    'status',
    'artifact',
    'metadata',
  ]) {
    if (key in m) out[key] = m[key];
  }
  return out;
}
