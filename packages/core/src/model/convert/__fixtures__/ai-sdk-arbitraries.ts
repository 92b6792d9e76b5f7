import type { ModelMessage, ToolResultPart } from 'ai';
import fc from 'fast-check';
import { base64, httpsUrl, toPlain, words } from './mem-arbitraries.ts';

type Part<R extends ModelMessage['role']> = Exclude<
  Extract<ModelMessage, { role: R }>['content'],
  string
>[number];
type Output = ToolResultPart['output'];

/** JSON without -0, which JSON text cannot tell from 0. */
const json = fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.parse(JSON.stringify(v)) as never);
const providerOptions = fc.dictionary(
  fc.constantFrom('openai', 'anthropic', 'google'),
  fc.dictionary(fc.string({ maxLength: 5 }), json, { maxKeys: 2 }),
  { minKeys: 1, maxKeys: 2 },
);
const withOptions = <T extends object>(arb: fc.Arbitrary<T>) =>
  fc
    .tuple(arb, fc.option(providerOptions, { nil: undefined }))
    .map(([v, o]) => (o === undefined ? v : { ...v, providerOptions: o }));
const data = fc.oneof(
  base64,
  httpsUrl,
  fc.uint8Array({ maxLength: 8 }),
  fc.uint8Array({ maxLength: 8 }).map((b) => Buffer.from(b)),
  fc.uint8Array({ maxLength: 8 }).map((b) => b.slice().buffer),
  httpsUrl.map((u) => new URL(u)),
);
const text = withOptions(fc.record({ type: fc.constant('text' as const), text: words }));
const image = withOptions(
  fc.record(
    { type: fc.constant('image' as const), image: data, mediaType: fc.constant('image/png') },
    { requiredKeys: ['type', 'image'] },
  ),
);
const file = withOptions(
  fc.record(
    {
      type: fc.constant('file' as const),
      data,
      mediaType: fc.constantFrom('application/pdf', 'image/*'),
      filename: words,
    },
    { requiredKeys: ['type', 'data', 'mediaType'] },
  ),
);
const reasoning = withOptions(fc.record({ type: fc.constant('reasoning' as const), text: words }));
const userPart: fc.Arbitrary<Part<'user'>> = fc.oneof(text, image, file);
const assistantPart: fc.Arbitrary<Part<'assistant'>> = fc.oneof(text, file, reasoning);
const item = withOptions(
  fc.oneof(
    fc.record({ type: fc.constant('text' as const), text: words }),
    fc.record({
      type: fc.constant('image-data' as const),
      data: base64,
      mediaType: fc.constant('image/png'),
    }),
    fc.record({ type: fc.constant('image-url' as const), url: httpsUrl }),
    fc.record(
      {
        type: fc.constant('file-data' as const),
        data: base64,
        mediaType: fc.constant('application/pdf'),
        filename: words,
      },
      { requiredKeys: ['type', 'data', 'mediaType'] },
    ),
    fc.record(
      {
        type: fc.constant('file-url' as const),
        url: httpsUrl,
        mediaType: fc.constant('application/pdf'),
      },
      { requiredKeys: ['type', 'url'] },
    ),
    fc.record({ type: fc.constant('file-id' as const), fileId: words }),
    fc.record({ type: fc.constant('custom' as const) }),
  ),
);
const output: fc.Arbitrary<Output> = fc.oneof(
  withOptions(
    fc.record({ type: fc.constantFrom('text' as const, 'error-text' as const), value: words }),
  ),
  withOptions(
    fc.record({ type: fc.constantFrom('json' as const, 'error-json' as const), value: json }),
  ),
  withOptions(
    fc.record(
      { type: fc.constant('execution-denied' as const), reason: words },
      { requiredKeys: ['type'] },
    ),
  ),
  fc.record({ type: fc.constant('content' as const), value: fc.array(item, { maxLength: 3 }) }),
) as fc.Arbitrary<Output>;
const input = fc.oneof(json, fc.constantFrom('{"city": "Ber', 'SELECT 1', '42', '"quoted"'));

const round = (first: number) =>
  fc
    .record({
      content: fc.array(assistantPart, { maxLength: 2 }),
      calls: fc.array(
        fc.record({
          input,
          options: fc.option(providerOptions, { nil: undefined }),
          executed: fc.boolean(),
        }),
        {
          minLength: 1,
          maxLength: 3,
        },
      ),
      outputs: fc.array(withOptions(fc.record({ output })), { minLength: 3, maxLength: 3 }),
      approval: fc.boolean(),
      split: fc.nat(3),
      messageOptions: fc.option(providerOptions, { nil: undefined }),
    })
    .chain((r) => {
      const calls = r.calls.map(
        (c, k): Part<'assistant'> => ({
          type: 'tool-call',
          toolCallId: `c${first + k}`,
          toolName: 'search_orders',
          input: c.input,
          ...(c.options === undefined ? {} : { providerOptions: c.options }),
          ...(c.executed ? { providerExecuted: true } : {}),
        }),
      );
      const results = calls.map((_call, k): Part<'tool'> => {
        const { output: out, ...rest } = r.outputs[k]!;
        return {
          type: 'tool-result',
          toolCallId: `c${first + k}`,
          toolName: 'search_orders',
          output: out,
          ...rest,
        };
      });
      const approvals: Part<'tool'>[] = r.approval
        ? [{ type: 'tool-approval-response', approvalId: `ap${first}`, approved: false }]
        : [];
      const extra: Part<'assistant'>[] = r.approval
        ? [{ type: 'tool-approval-request', approvalId: `ap${first}`, toolCallId: `c${first}` }]
        : [];
      const cut = Math.min(r.split, results.length);
      const chunks = [[...approvals, ...results.slice(0, cut)], results.slice(cut)].filter(
        (c) => c.length > 0,
      );
      const shuffle = <T>(items: T[]) =>
        fc.shuffledSubarray(items, { minLength: items.length, maxLength: items.length });
      return fc
        .tuple(shuffle([...r.content, ...calls, ...extra]), ...chunks.map(shuffle))
        .map(([assistant, ...tools]): ModelMessage[] => [
          { role: 'assistant', content: assistant },
          ...tools.map(
            (content, k): ModelMessage => ({
              role: 'tool',
              content,
              ...(k === 0 && r.messageOptions !== undefined
                ? { providerOptions: r.messageOptions }
                : {}),
            }),
          ),
        ]);
    });

const turn = (first: number) =>
  fc
    .tuple(
      fc.option(withOptions(fc.record({ role: fc.constant('system' as const), content: words })), {
        nil: undefined,
      }),
      withOptions(
        fc.record({
          role: fc.constant('user' as const),
          content: fc.oneof(words, fc.array(userPart, { maxLength: 3 })),
        }),
      ),
      round(first),
      round(first + 10),
      fc.nat(2),
      fc.option(
        fc.record({
          role: fc.constant('assistant' as const),
          content: fc.oneof(words, fc.array(assistantPart, { maxLength: 2 })),
        }),
        {
          nil: undefined,
        },
      ),
    )
    .map(([system, user, a, b, rounds, reply]): ModelMessage[] => [
      ...(system === undefined ? [] : [system]),
      user,
      ...[a, b].slice(0, rounds).flat(),
      ...(reply === undefined ? [] : [reply]),
    ]);

/** Random valid AI SDK histories: tool calls and results, approvals, binary data, providerOptions. */
export const modelHistory: fc.Arbitrary<ModelMessage[]> = fc
  .tuple(turn(0), turn(100), turn(200), fc.integer({ min: 1, max: 3 }))
  .map(([a, b, c, count]) => toPlain([a, b, c].slice(0, count).flat()));
