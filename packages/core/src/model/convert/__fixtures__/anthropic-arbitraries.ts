import type {
  ContentBlockParam,
  MessageParam,
  TextBlockParam,
} from '@anthropic-ai/sdk/resources/messages';
import fc from 'fast-check';
import { base64, httpsUrl, toPlain, words } from './mem-arbitraries.ts';

/** JSON without -0, which JSON text (and so `ToolCall.arguments`) cannot tell from 0. */
export const jsonInput = fc
  .dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 })
  .map((value) => JSON.parse(JSON.stringify(value)) as Record<string, unknown>);

const cache = fc.constantFrom(
  { type: 'ephemeral' as const },
  { type: 'ephemeral' as const, ttl: '1h' as const },
);
const text: fc.Arbitrary<TextBlockParam> = fc.record(
  {
    type: fc.constant('text' as const),
    text: words,
    cache_control: cache,
    citations: fc.constant([
      {
        type: 'char_location' as const,
        cited_text: 'DHL',
        document_index: 0,
        document_title: null,
        start_char_index: 0,
        end_char_index: 3,
      },
    ]),
  },
  { requiredKeys: ['type', 'text'] },
);
const image = fc.record({
  type: fc.constant('image' as const),
  source: fc.oneof(
    fc.record({
      type: fc.constant('base64' as const),
      media_type: fc.constant('image/webp' as const),
      data: base64,
    }),
    fc.record({ type: fc.constant('url' as const), url: httpsUrl }),
    fc.record({ type: fc.constant('file' as const), file_id: words }),
  ),
});
const document = fc.record(
  {
    type: fc.constant('document' as const),
    source: fc.oneof(
      fc.record({
        type: fc.constant('base64' as const),
        media_type: fc.constant('application/pdf' as const),
        data: base64,
      }),
      fc.record({
        type: fc.constant('text' as const),
        media_type: fc.constant('text/plain' as const),
        data: fc.oneof(words, fc.string({ unit: 'binary', maxLength: 8 })),
      }),
      fc.record({ type: fc.constant('url' as const), url: httpsUrl }),
    ),
    title: fc.option(words),
    context: words,
    citations: fc.constant({ enabled: true }),
  },
  { requiredKeys: ['type', 'source'] },
);
const searchResult = fc.record({
  type: fc.constant('search_result' as const),
  source: httpsUrl,
  title: words,
  content: fc.array(fc.record({ type: fc.constant('text' as const), text: words }), {
    maxLength: 2,
  }),
});
const userBlock: fc.Arbitrary<ContentBlockParam> = fc.oneof(text, image, document, searchResult);
const reasoning: fc.Arbitrary<ContentBlockParam> = fc.oneof(
  fc.record({ type: fc.constant('thinking' as const), thinking: words, signature: base64 }),
  fc.record({ type: fc.constant('redacted_thinking' as const), data: base64 }),
);
const serverToolUse = fc.record({
  type: fc.constant('server_tool_use' as const),
  id: base64.map((b) => `srvtoolu_${b}`),
  name: fc.constant('web_search' as const),
  input: jsonInput,
});
const resultContent = fc.oneof(
  words,
  fc.array(fc.oneof(text, image, document), { maxLength: 2 }),
  fc.constant(undefined),
);

/** Permutations of a list. */
function shuffled<T>(items: T[]): fc.Arbitrary<T[]> {
  return fc.shuffledSubarray(items, { minLength: items.length, maxLength: items.length });
}

const round = (first: number) =>
  fc
    .record({
      before: fc.array(fc.oneof(text, reasoning, serverToolUse), { maxLength: 3 }),
      calls: fc.array(
        fc.record({ input: jsonInput, cache_control: fc.option(cache, { nil: undefined }) }),
        {
          minLength: 1,
          maxLength: 3,
        },
      ),
      results: fc.array(
        fc.record({
          content: resultContent,
          is_error: fc.option(fc.boolean(), { nil: undefined }),
          cache: fc.boolean(),
        }),
        { minLength: 3, maxLength: 3 },
      ),
      split: fc.nat(3),
      trailing: fc.array(text, { maxLength: 2 }),
    })
    .chain((r) => {
      const uses = r.calls.map((c, k) => ({
        type: 'tool_use' as const,
        id: `toolu_${first + k}`,
        name: 'search_orders',
        input: c.input,
        ...(c.cache_control === undefined ? {} : { cache_control: c.cache_control }),
      }));
      const results = uses.map((use, k) => {
        const spec = r.results[k]!;
        return {
          type: 'tool_result' as const,
          tool_use_id: use.id,
          ...(spec.content === undefined ? {} : { content: spec.content }),
          ...(spec.is_error === undefined ? {} : { is_error: spec.is_error }),
          ...(spec.cache ? { cache_control: { type: 'ephemeral' as const } } : {}),
        };
      });
      const cut = Math.min(r.split, results.length);
      const chunks = [results.slice(0, cut), [...results.slice(cut), ...r.trailing]].filter(
        (c) => c.length > 0,
      );
      return fc.tuple(
        shuffled<ContentBlockParam>([...r.before, ...uses]),
        ...chunks.map((c) => shuffled<ContentBlockParam>(c)),
      );
    })
    .map(([assistant, ...users]): MessageParam[] => [
      { role: 'assistant', content: assistant },
      ...users.map((content): MessageParam => ({ role: 'user', content })),
    ]);

const turn = (first: number) =>
  fc
    .tuple(
      fc.record({
        role: fc.constant('user' as const),
        content: fc.oneof(words, fc.array(userBlock, { maxLength: 4 })),
      }),
      round(first),
      round(first + 10),
      fc.nat(2),
      fc.option(
        fc.record({
          role: fc.constant('assistant' as const),
          content: fc.oneof(words, fc.array(fc.oneof(text, reasoning), { maxLength: 3 })),
        }),
        { nil: undefined },
      ),
    )
    .map(([user, a, b, rounds, reply]): MessageParam[] => [
      user,
      ...[a, b].slice(0, rounds).flat(),
      ...(reply === undefined ? [] : [reply]),
    ]);

/** Random valid Anthropic requests (system and messages) with tool use, results and extras. */
export const anthropicRequest = fc
  .record({
    system: fc.option(fc.oneof(words, fc.array(text, { maxLength: 2 })), { nil: undefined }),
    turns: fc.tuple(turn(0), turn(100), turn(200)),
    count: fc.integer({ min: 1, max: 3 }),
  })
  .map(({ system, turns, count }) =>
    toPlain({
      ...(system === undefined ? {} : { system }),
      messages: turns.slice(0, count).flat(),
    }),
  );
