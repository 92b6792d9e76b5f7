import { MemError, MemValidationError, messageSchema } from '@mem/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromLangChainMessages } from './from-langchain.ts';

/** What an app may hand over as a "message": LangChain's fields with any values, or anything. */
const field = fc.oneof(fc.anything(), fc.constant(undefined));
const looseCall = fc.record(
  { id: field, name: field, args: fc.oneof(fc.anything(), fc.constant(1n)), type: field },
  { requiredKeys: [] },
);
const looseMessage = fc.record(
  {
    type: fc.oneof(fc.constantFrom('human', 'ai', 'system', 'tool', 'generic', 'toString'), field),
    content: fc.oneof(fc.string(), fc.array(fc.anything(), { maxLength: 3 }), field),
    id: field,
    name: field,
    additional_kwargs: field,
    response_metadata: field,
    tool_calls: fc.oneof(fc.array(fc.oneof(looseCall, fc.anything()), { maxLength: 2 }), field),
    invalid_tool_calls: field,
    usage_metadata: field,
    tool_call_id: fc.oneof(fc.string(), field),
    status: fc.oneof(fc.constantFrom('success', 'error'), field),
    artifact: field,
    metadata: field,
  },
  { requiredKeys: [] },
);

describe('fromLangChainMessages on malformed input', () => {
  it('converts to valid mem messages or throws a MemError naming the item, never a raw error (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(looseMessage, fc.anything()), { maxLength: 3 }), (input) => {
        let out: unknown;
        try {
          out = fromLangChainMessages(input as never);
        } catch (error) {
          expect(MemError.isInstance(error)).toBe(true);
          expect(error).toBeInstanceOf(MemValidationError);
          expect((error as MemValidationError).field).toMatch(/^messages\[\d+\]/);
          expect((error as Error).message).toMatch(/^\[mem\/langchain\] messages\[\d+\]/);
          return;
        }
        for (const m of out as unknown[]) expect(messageSchema.safeParse(m).success).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('names the field of a malformed message', () => {
    const cases: [unknown, string][] = [
      [{ type: 'human', content: 42 }, 'messages[0].content'],
      [{ type: 'human', content: 'hi', id: 7 }, 'messages[0].id'],
      [{ type: 'ai', content: '', tool_calls: 'lookup' }, 'messages[0].tool_calls'],
      [{ type: 'ai', content: '', tool_calls: [null] }, 'messages[0].tool_calls[0]'],
      [
        { type: 'ai', content: '', tool_calls: [{ id: 'c1', name: 'f', args: { n: 1n } }] },
        'messages[0].tool_calls[0].args',
      ],
      [{ type: 'tool', content: 'ok', tool_call_id: 'c1', status: 'done' }, 'messages[0].status'],
      [{ type: 'toString', content: 'hi' }, 'messages[0]'],
    ];
    for (const [message, name] of cases) {
      expect(() => fromLangChainMessages([message as never])).toThrow(
        expect.objectContaining({ name: 'MemValidationError', field: name }),
      );
    }
  });
});
