/*
 * Generate results and stream parts in the shape both `LanguageModelV3` (`ai` 6) and
 * `LanguageModelV4` (`ai` 7) mock models return.
 */

export function usage(inputTokens: number, outputTokens = 5) {
  return {
    inputTokens: {
      total: inputTokens,
      noCache: inputTokens,
      cacheRead: undefined,
      cacheWrite: undefined,
    },
    outputTokens: { total: outputTokens, text: outputTokens, reasoning: undefined },
  };
}

export function textResult(text: string, inputTokens = 10) {
  return {
    content: [{ type: 'text' as const, text }],
    finishReason: { unified: 'stop' as const, raw: 'stop' },
    usage: usage(inputTokens),
    warnings: [],
  };
}

export function toolCallResult(toolCallId: string, toolName: string, input: object) {
  return {
    content: [
      {
        type: 'tool-call' as const,
        toolCallId,
        toolName,
        // Spaced on purpose: the next step's prompt carries the parsed object.
        input: JSON.stringify(input, null, 1),
      },
    ],
    finishReason: { unified: 'tool-calls' as const, raw: 'tool_calls' },
    usage: usage(20),
    warnings: [],
  };
}

export function textStreamParts(deltas: readonly string[], inputTokens = 10) {
  return [
    { type: 'stream-start' as const, warnings: [] },
    { type: 'text-start' as const, id: 't1' },
    ...deltas.map((delta) => ({ type: 'text-delta' as const, id: 't1', delta })),
    { type: 'text-end' as const, id: 't1' },
    {
      type: 'finish' as const,
      finishReason: { unified: 'stop' as const, raw: 'stop' },
      usage: usage(inputTokens),
    },
  ];
}

export function toolCallStreamParts(toolCallId: string, toolName: string, input: object) {
  return [
    { type: 'stream-start' as const, warnings: [] },
    { type: 'tool-call' as const, toolCallId, toolName, input: JSON.stringify(input) },
    {
      type: 'finish' as const,
      finishReason: { unified: 'tool-calls' as const, raw: 'tool_calls' },
      usage: usage(20),
    },
  ];
}
