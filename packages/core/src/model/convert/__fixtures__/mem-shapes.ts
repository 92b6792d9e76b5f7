import fc from 'fast-check';
import type { ContentPart } from '../../message.ts';
import { textToBase64 } from '../data-encoding.ts';
import {
  base64,
  httpsUrl,
  jsonObjectArgs,
  type MemShape,
  textPart,
  words,
} from './mem-arbitraries.ts';

const content = (part: fc.Arbitrary<ContentPart>) =>
  fc.oneof(words, fc.array(part, { maxLength: 3 }));
const literal = <T extends string>(value: T) => fc.constant(value);

const urlImage = fc.record({ type: literal('image'), image: httpsUrl });
const base64Image = (mediaType: string) =>
  fc.record({ type: literal('image'), image: base64, mediaType: fc.constant(mediaType) });
const pdf = (data: fc.Arbitrary<string>) =>
  fc.record(
    { type: literal('file'), data, mediaType: fc.constant('application/pdf'), filename: words },
    { requiredKeys: ['type', 'data', 'mediaType'] },
  );
const signedReasoning: fc.Arbitrary<ContentPart> = fc.oneof(
  fc.record({ type: literal('reasoning'), text: words, signature: base64 }),
  fc.record({ type: literal('reasoning'), text: fc.constant(''), redacted: base64 }),
);

/** What OpenAI carries: names; media in user messages only; no isError. */
export const openAIShape: MemShape = {
  system: content(textPart),
  user: content(
    fc.oneof(
      textPart,
      fc.record(
        {
          type: literal('image'),
          image: httpsUrl,
          detail: fc.constantFrom('auto' as const, 'low' as const),
        },
        { requiredKeys: ['type', 'image'] },
      ),
      base64Image('image/jpeg'),
      fc.record({
        type: literal('file'),
        data: base64,
        mediaType: fc.constantFrom('audio/wav', 'audio/mpeg'),
      }),
      pdf(base64),
    ),
  ),
  reply: content(textPart),
  callContent: fc.oneof(words, fc.array(textPart, { minLength: 1, maxLength: 2 })),
  args: fc.oneof(jsonObjectArgs, words),
  tool: content(textPart).map((c) => ({ content: c })),
  names: true,
  midSystem: true,
};

/** What Anthropic carries: signed reasoning, JSON object arguments, isError; no names. */
export const anthropicShape: MemShape = {
  system: content(textPart),
  user: content(
    fc.oneof(
      textPart,
      urlImage,
      base64Image('image/png'),
      pdf(fc.oneof(base64, httpsUrl)),
      fc.record({
        type: literal('file'),
        data: words.map(textToBase64),
        mediaType: fc.constant('text/plain'),
      }),
    ),
  ),
  reply: content(fc.oneof(textPart, signedReasoning)),
  callContent: fc.array(fc.oneof(textPart, signedReasoning), { maxLength: 2 }),
  args: jsonObjectArgs,
  tool: fc.record(
    {
      content: content(fc.oneof(textPart, urlImage, base64Image('image/gif'))),
      isError: fc.boolean(),
    },
    { requiredKeys: ['content'], noNullPrototype: true },
  ),
  names: false,
  midSystem: false,
};

/** What the AI SDK carries: any JSON or unparsable arguments, isError on text results; no names. */
export const aiSdkShape: MemShape = {
  system: words,
  user: content(
    fc.oneof(
      textPart,
      fc.record(
        {
          type: literal('image'),
          image: fc.oneof(httpsUrl, base64),
          mediaType: fc.constant('image/png'),
        },
        { requiredKeys: ['type', 'image'] },
      ),
      pdf(fc.oneof(base64, httpsUrl)),
    ),
  ),
  reply: content(
    fc.oneof(
      textPart,
      pdf(fc.oneof(base64, httpsUrl)),
      fc.record(
        { type: literal('reasoning'), text: words, signature: base64, redacted: base64 },
        { requiredKeys: ['type', 'text'] },
      ),
    ),
  ),
  callContent: fc.array(fc.oneof(textPart, signedReasoning), { maxLength: 2 }),
  // A JSON string literal whose content is not JSON ('"hi"') comes back unquoted ('hi'), as the
  // AI SDK gives unparsable arguments as the raw string: left out here.
  args: fc.oneof(
    fc
      .jsonValue({ maxDepth: 2 })
      .filter((v) => typeof v !== 'string')
      .map((v) => JSON.stringify(v)),
    fc.constantFrom('{"city": "Ber', 'not json'),
  ),
  tool: fc.oneof(
    fc.record({ content: words, isError: fc.boolean() }),
    fc.record({
      content: fc.array(
        fc.oneof(
          textPart,
          urlImage,
          base64Image('image/png'),
          fc.record({
            type: literal('file'),
            data: httpsUrl,
            mediaType: fc.constant('application/pdf'),
          }),
          pdf(base64),
        ),
        { maxLength: 3 },
      ),
    }),
  ),
  names: false,
  midSystem: true,
};
