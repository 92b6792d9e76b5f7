import { MemConversionError } from '../../errors/errors.ts';
import type { WireFormat } from '../message.ts';

const FORMAT_NAMES: Record<WireFormat, string> = {
  openai: 'OpenAI Chat Completions',
  'openai-responses': 'OpenAI Responses',
  anthropic: 'Anthropic',
  'ai-sdk': 'AI SDK',
};

/** Builds the error for one bad field: `path` names it, `problem` says what is wrong, `fix` what to do. */
export type Fail = (
  path: string,
  problem: string,
  fix: string,
  cause?: unknown,
) => MemConversionError;

/** Errors for input read from `format` (wire -> mem). */
export function wireInputFail(format: WireFormat): Fail {
  return (path, problem, fix, cause) =>
    new MemConversionError(
      format,
      `[mem/core] converting ${FORMAT_NAMES[format]} messages to mem: ${path} ${problem}. ${fix}`,
      { cause },
    );
}

/** Errors for mem messages that cannot be written as `format` (mem -> wire). */
export function memInputFail(format: WireFormat): Fail {
  return (path, problem, fix, cause) =>
    new MemConversionError(
      format,
      `[mem/core] converting mem messages to ${FORMAT_NAMES[format]}: ${path} ${problem}. ${fix}`,
      { cause },
    );
}
