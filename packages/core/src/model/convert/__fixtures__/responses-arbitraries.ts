import fc from 'fast-check';
import type { ResponseInputItem, ResponseOutputText } from 'openai/resources/responses/responses';
import type { ContentPart } from '../../message.ts';
import {
  base64,
  httpsUrl,
  jsonObjectArgs,
  type MemShape,
  textPart,
  toPlain,
  words,
} from './mem-arbitraries.ts';

const name = fc.stringMatching(/^[a-z]{1,8}$/);
const status = fc.constantFrom('in_progress' as const, 'completed' as const, 'incomplete' as const);
const inputText = words.map((text) => ({ type: 'input_text' as const, text }));
const inputPart = fc.oneof(
  inputText,
  fc.record({
    type: fc.constant('input_image' as const),
    image_url: fc.oneof(
      httpsUrl,
      base64.map((b) => `data:image/png;base64,${b}`),
    ),
    detail: fc.constantFrom('auto' as const, 'low' as const, 'high' as const, 'original' as const),
  }),
  fc.oneof(
    fc.record(
      {
        type: fc.constant('input_file' as const),
        file_data: base64.map((b) => `data:application/pdf;base64,${b}`),
        filename: name.map((n) => `${n}.pdf`),
      },
      { requiredKeys: ['type', 'file_data'] },
    ),
    fc.record({ type: fc.constant('input_file' as const), file_id: name.map((n) => `file-${n}`) }),
  ),
);
const content = fc.oneof(words, fc.array(inputPart, { maxLength: 4 }));

const inputMessage = fc.record(
  {
    type: fc.constant('message' as const),
    role: fc.constantFrom('user' as const, 'system' as const, 'developer' as const),
    content,
    status,
  },
  { requiredKeys: ['role', 'content'] },
);
const userMessage = fc.record(
  { type: fc.constant('message' as const), role: fc.constant('user' as const), content },
  { requiredKeys: ['role', 'content'] },
);
const outputText = fc.record({
  type: fc.constant('output_text' as const),
  text: words,
  annotations: fc.oneof<fc.Arbitrary<ResponseOutputText['annotations']>[]>(
    fc.constant(null).map(() => []),
    fc
      .tuple(httpsUrl, words)
      .map(([url, title]) => [
        { type: 'url_citation' as const, url, title, start_index: 0, end_index: 1 },
      ]),
  ),
});
const assistantItem = fc.oneof(
  fc.record(
    {
      role: fc.constant('assistant' as const),
      content: words,
      phase: fc.constantFrom('commentary' as const, 'final_answer' as const),
    },
    { requiredKeys: ['role', 'content'] },
  ),
  fc.record({
    type: fc.constant('message' as const),
    id: name.map((n) => `msg_${n}`),
    role: fc.constant('assistant' as const),
    status,
    content: fc.array(
      fc.oneof(
        outputText,
        words.map((refusal) => ({ type: 'refusal' as const, refusal })),
      ),
      { maxLength: 3 },
    ),
  }),
);
const reasoning = fc.record(
  {
    type: fc.constant('reasoning' as const),
    id: name.map((n) => `rs_${n}`),
    summary: fc.array(
      words.map((text) => ({ type: 'summary_text' as const, text })),
      { maxLength: 2 },
    ),
    encrypted_content: base64,
  },
  { requiredKeys: ['type', 'id', 'summary'] },
);
const webSearch = fc.record({
  type: fc.constant('web_search_call' as const),
  id: name.map((n) => `ws_${n}`),
  status: fc.constantFrom('completed' as const, 'failed' as const),
  action: words.map((query) => ({ type: 'search' as const, query })),
});
const callExtras = fc.record({ id: name.map((n) => `fc_${n}`), status }, { requiredKeys: [] });

/**
 * Random Responses API histories: input messages, assistant items (string and output messages),
 * reasoning, hosted tool calls, function calls (with their outputs, in any order) and extra fields.
 */
export const responsesHistory: fc.Arbitrary<ResponseInputItem[]> = fc
  .array(
    fc.record({
      system: fc.option(inputMessage, { nil: undefined }),
      user: userMessage,
      rounds: fc.array(
        fc.record({
          before: fc.array(fc.oneof(reasoning, webSearch, assistantItem), { maxLength: 2 }),
          calls: fc.array(fc.record({ extras: callExtras, args: words, fn: name }), {
            minLength: 1,
            maxLength: 3,
          }),
          outputs: fc.array(fc.oneof(words, fc.array(inputText, { maxLength: 2 })), {
            minLength: 3,
            maxLength: 3,
          }),
          reverse: fc.boolean(),
        }),
        { maxLength: 2 },
      ),
      reply: fc.array(fc.oneof(assistantItem, webSearch), { maxLength: 2 }),
    }),
    { minLength: 1, maxLength: 3 },
  )
  .map((turns) => {
    const out: ResponseInputItem[] = [];
    let n = 0;
    for (const turn of turns) {
      if (turn.system !== undefined) out.push(turn.system);
      out.push(turn.user);
      for (const round of turn.rounds) {
        out.push(...round.before);
        const ids = round.calls.map((call) => {
          const id = `call_${++n}`;
          out.push({
            type: 'function_call',
            call_id: id,
            name: call.fn,
            arguments: call.args,
            ...call.extras,
          });
          return id;
        });
        const outputs = ids.map(
          (id, k): ResponseInputItem => ({
            type: 'function_call_output',
            call_id: id,
            output: round.outputs[k]!,
          }),
        );
        out.push(...(round.reverse ? outputs.reverse() : outputs));
      }
      out.push(...turn.reply);
    }
    return toPlain(out);
  });

const detail = fc.constantFrom('auto' as const, 'low' as const, 'high' as const);
const memUserPart: fc.Arbitrary<ContentPart> = fc.oneof(
  textPart,
  fc.record({ type: fc.constant('image' as const), image: httpsUrl, detail }),
  fc.record({
    type: fc.constant('image' as const),
    image: base64,
    mediaType: fc.constant('image/jpeg'),
    detail,
  }),
  fc.record(
    {
      type: fc.constant('file' as const),
      data: base64,
      mediaType: fc.constant('application/pdf'),
      filename: words,
    },
    { requiredKeys: ['type', 'data', 'mediaType'] },
  ),
);
const memContent = (part: fc.Arbitrary<ContentPart>) =>
  fc.oneof(words, fc.array(part, { maxLength: 3 }));

/**
 * What the Responses API carries for messages from other formats: media with a `detail` (it is
 * required there), assistant text as one string, no names, no isError.
 */
export const responsesShape: MemShape = {
  system: memContent(textPart),
  user: memContent(memUserPart),
  reply: words,
  callContent: words,
  args: fc.oneof(jsonObjectArgs, words),
  tool: memContent(textPart).map((content) => ({ content })),
  names: false,
  midSystem: true,
};
