import type { ModelMessage } from 'ai-v7';
import fc from 'fast-check';
import { modelHistory } from './ai-sdk-arbitraries.ts';
import { base64, httpsUrl, toPlain, words } from './mem-arbitraries.ts';

type V7Part<R extends ModelMessage['role']> = Exclude<
  Extract<ModelMessage, { role: R }>['content'],
  string
>[number];

const reference = fc.constantFrom({ openai: 'file-1' }, { openai: 'file-2', anthropic: 'file_2' });

/** v7 tagged file data in every form that survives storage as JSON (bytes go through mem's kinds). */
const taggedData = fc.oneof(
  fc.record({ type: fc.constant('data' as const), data: base64 }),
  fc.record({ type: fc.constant('data' as const), data: fc.uint8Array({ maxLength: 8 }) }),
  fc.record({
    type: fc.constant('data' as const),
    data: fc.uint8Array({ maxLength: 8 }).map((b) => Buffer.from(b)),
  }),
  fc.record({
    type: fc.constant('data' as const),
    data: fc.uint8Array({ maxLength: 8 }).map((b) => b.slice().buffer),
  }),
  fc.record({ type: fc.constant('url' as const), url: httpsUrl.map((u) => new URL(u)) }),
  fc.record({ type: fc.constant('reference' as const), reference }),
  fc.record({ type: fc.constant('text' as const), text: words }),
);
const taggedFile = fc.record(
  {
    type: fc.constant('file' as const),
    data: taggedData,
    mediaType: fc.constantFrom('application/pdf', 'image', 'text/plain'),
    filename: words,
  },
  { requiredKeys: ['type', 'data', 'mediaType'] },
);
const userPart: fc.Arbitrary<V7Part<'user'>> = fc.oneof(
  taggedFile,
  fc.record({ type: fc.constant('image' as const), image: reference }),
);
const assistantPart: fc.Arbitrary<V7Part<'assistant'>> = fc.oneof(
  taggedFile,
  fc.record(
    {
      type: fc.constant('custom' as const),
      kind: fc.constantFrom('openai.compaction' as const, 'anthropic.context' as const),
      providerOptions: fc.constant({ openai: { id: 'cmp_1' } }),
    },
    { requiredKeys: ['type', 'kind'] },
  ),
  fc.record({
    type: fc.constant('reasoning-file' as const),
    data: fc.record({ type: fc.constant('data' as const), data: base64 }),
    mediaType: fc.constant('image/png'),
  }),
);
const outputItem = fc.oneof(
  fc.record({
    type: fc.constant('file' as const),
    data: fc.oneof(
      fc.record({ type: fc.constant('data' as const), data: base64 }),
      fc.record({ type: fc.constant('reference' as const), reference }),
    ),
    mediaType: fc.constant('application/pdf'),
  }),
  fc.record({ type: fc.constant('file-reference' as const), providerReference: reference }),
  fc.record({ type: fc.constant('image-file-reference' as const), providerReference: reference }),
);

/** The v7-only shapes in one user turn and one tool round, put after a v6-shaped history. */
const v7Turn: fc.Arbitrary<ModelMessage[]> = fc
  .record({
    user: fc.array(userPart, { minLength: 1, maxLength: 3 }),
    assistant: fc.array(assistantPart, { maxLength: 3 }),
    items: fc.array(outputItem, { minLength: 1, maxLength: 3 }),
    reason: fc.option(words, { nil: undefined }),
    automatic: fc.boolean(),
  })
  .map(({ user, assistant, items, reason, automatic }): ModelMessage[] => [
    { role: 'user', content: user },
    {
      role: 'assistant',
      content: [
        ...assistant,
        { type: 'tool-call', toolCallId: 'v7c1', toolName: 'fetch_file', input: { id: 1 } },
        {
          type: 'tool-approval-request',
          approvalId: 'v7ap',
          toolCallId: 'v7c1',
          ...(reason === undefined ? {} : { reason }),
          ...(automatic ? { isAutomatic: true } : {}),
        },
      ],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'v7c1',
          toolName: 'fetch_file',
          output: { type: 'content', value: items },
        },
      ],
    },
  ]);

/**
 * Random AI SDK v7 histories: the v6-shaped ones (v7 reads the same parts) followed by v7-only
 * shapes — tagged file data, provider references, custom and reasoning-file parts, file and
 * reference tool output items, approval reasons.
 */
export const modelHistoryV7: fc.Arbitrary<ModelMessage[]> = fc
  .tuple(modelHistory, v7Turn)
  .map(([history, turn]) => toPlain([...(history as unknown as ModelMessage[]), ...turn]));
