import { describe, expect, it } from 'vitest';
import {
  fromAnthropicMessages,
  MemConversionError,
  MemError,
  MemValidationError,
} from '../index.ts';

describe('malformed wire-format input', () => {
  it('is a MemValidationError that keeps its own code MEM_CONVERSION and names the format', () => {
    const error = new MemConversionError('anthropic', '[mem/core] bad block');
    expect(error).toBeInstanceOf(MemValidationError);
    expect(MemError.hasCode(error, 'MEM_CONVERSION')).toBe(true);
    expect(error.field).toBe('anthropic');
    expect(new MemConversionError('openai', 'x', { field: 'messages[2].role' }).field).toBe(
      'messages[2].role',
    );
  });

  it('reaches the caller of a converter as a MemValidationError', () => {
    let thrown: unknown;
    try {
      fromAnthropicMessages({ messages: [{ role: 'system', content: 'Be brief.' }] } as never);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(MemValidationError);
    expect(String((thrown as Error).message)).toMatch(/system/);
  });
});
