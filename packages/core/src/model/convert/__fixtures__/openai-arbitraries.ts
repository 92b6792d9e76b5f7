import fc from 'fast-check';
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionContentPart,
  ChatCompletionContentPartText,
  ChatCompletionMessageParam,
  ChatCompletionMessageToolCall,
} from 'openai/resources/chat/completions';
import { base64, httpsUrl, toPlain, words } from './mem-arbitraries.ts';

const name = fc.stringMatching(/^[a-z]{1,8}$/);
const textPart = words.map((text): ChatCompletionContentPartText => ({ type: 'text', text }));
const textContent = fc.oneof(words, fc.array(textPart, { maxLength: 3 }));
const userPart: fc.Arbitrary<ChatCompletionContentPart> = fc.oneof(
  textPart,
  fc.record({
    type: fc.constant('image_url' as const),
    image_url: fc.record(
      {
        url: fc.oneof(
          httpsUrl,
          base64.map((b) => `data:image/png;base64,${b}`),
        ),
        detail: fc.constantFrom('auto' as const, 'low' as const, 'high' as const),
      },
      { requiredKeys: ['url'] },
    ),
  }),
  fc.record({
    type: fc.constant('input_audio' as const),
    input_audio: fc.record({
      data: base64,
      format: fc.constantFrom('wav' as const, 'mp3' as const),
    }),
  }),
  fc.record({
    type: fc.constant('file' as const),
    file: fc.oneof(
      fc.record(
        {
          file_data: base64.map((b) => `data:application/pdf;base64,${b}`),
          filename: name.map((n) => `${n}.pdf`),
        },
        { requiredKeys: ['file_data'] },
      ),
      fc.record({ file_id: name.map((n) => `file-${n}`) }),
    ),
  }),
);

const system = fc.record(
  { role: fc.constantFrom('system' as const, 'developer' as const), content: textContent, name },
  { requiredKeys: ['role', 'content'] },
);
const user = fc.record(
  {
    role: fc.constant('user' as const),
    content: fc.oneof(words, fc.array(userPart, { maxLength: 4 })),
    name,
  },
  { requiredKeys: ['role', 'content'] },
);
const assistantContent = fc.oneof(
  fc.constant(null),
  words,
  fc.array(
    fc.oneof(
      textPart,
      words.map((refusal) => ({ type: 'refusal' as const, refusal })),
    ),
    { maxLength: 3 },
  ),
);
const assistantExtras = fc.record(
  {
    content: assistantContent,
    // Request form: `null` refusal and audio are response-only and never sent back.
    refusal: words,
    name,
    audio: name.map((id) => ({ id })),
  },
  { requiredKeys: [] },
);
const call = fc.record({
  kind: fc.constantFrom('function', 'custom'),
  name: fc.constantFrom('search_orders', 'get_weather', 'run_sql'),
  args: fc.oneof(fc.json({ maxDepth: 2 }), words),
});

/** Random valid Chat Completions histories with (possibly custom) tool calls and their results. */
export const openAIHistory: fc.Arbitrary<ChatCompletionMessageParam[]> = fc
  .array(
    fc.record({
      system: fc.option(system, { nil: undefined }),
      user,
      rounds: fc.array(
        fc.record({
          assistant: assistantExtras,
          calls: fc.array(call, { minLength: 1, maxLength: 3 }),
          results: fc.array(textContent, { minLength: 3, maxLength: 3 }),
          reverse: fc.boolean(),
        }),
        { maxLength: 2 },
      ),
      reply: fc.option(assistantExtras, { nil: undefined }),
    }),
    { minLength: 1, maxLength: 3 },
  )
  .map((turns) => {
    const out: ChatCompletionMessageParam[] = [];
    let n = 0;
    for (const turn of turns) {
      if (turn.system !== undefined) out.push(turn.system);
      out.push(turn.user);
      for (const round of turn.rounds) {
        const toolCalls = round.calls.map(
          (c): ChatCompletionMessageToolCall =>
            c.kind === 'custom'
              ? { id: `call_${++n}`, type: 'custom', custom: { name: c.name, input: c.args } }
              : {
                  id: `call_${++n}`,
                  type: 'function',
                  function: { name: c.name, arguments: c.args },
                },
        );
        out.push({
          role: 'assistant',
          ...round.assistant,
          tool_calls: toolCalls,
        } as ChatCompletionAssistantMessageParam);
        const answers = toolCalls.map((tc, k) => ({
          role: 'tool' as const,
          tool_call_id: tc.id,
          content: round.results[k]!,
        }));
        out.push(...(round.reverse ? answers.reverse() : answers));
      }
      if (turn.reply !== undefined)
        out.push({ role: 'assistant', ...turn.reply } as ChatCompletionAssistantMessageParam);
    }
    return toPlain(out);
  });
