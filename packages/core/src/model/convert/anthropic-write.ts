import type { Message, ToolCall } from '../message.ts';
import { memPartToAnthropic } from './anthropic-blocks.ts';
import { ANTHROPIC_META as META } from './anthropic-meta.ts';
import type { AnthropicTextBlock } from './anthropic-types.ts';
import { memInputFail } from './conversion-error.ts';
import type { MessageFields } from './convert-options.ts';
import { interleave } from './tool-call-order.ts';
import {
  applyResidue,
  indexedExtras,
  isRecord,
  mergeExtra,
  type WireRecord,
} from './wire-fields.ts';

const toFail = memInputFail('anthropic');

/** The top-level `system` param for the system messages (each with its path in the input). */
export function systemParam(list: readonly [Message, string][]): string | AnthropicTextBlock[] {
  const only = list.length === 1 ? list[0]![0] : undefined;
  if (only !== undefined && typeof only.content === 'string') return only.content;
  return list.flatMap(([m, path]) => {
    const content = contentOf(m, path) ?? [];
    return (typeof content === 'string'
      ? textBlocks(content)
      : content) as unknown as AnthropicTextBlock[];
  });
}

/** The Anthropic content of a non-tool message; undefined when every part was left out. */
export function contentOf(m: Message, path: string): string | WireRecord[] | undefined {
  const calls = m.toolCalls ?? [];
  if (typeof m.content === 'string' && (m.role !== 'assistant' || calls.length === 0))
    return m.content;
  const blocks = typeof m.content === 'string' ? textBlocks(m.content) : blocksOf(m, path);
  if (m.role !== 'assistant' || calls.length === 0) return blocks;
  const extras = indexedExtras(m.metadata?.[META.toolCalls]);
  const uses = calls.map((call, j) =>
    mergeExtra(toolUseBlock(call, `${path}.toolCalls[${j}]`), extras(j)),
  );
  const positions = typeof m.content === 'string' ? undefined : m.metadata?.[META.toolUseAt];
  return interleave(blocks ?? [], uses, positions);
}

function textBlocks(text: string): WireRecord[] {
  return text.length > 0 ? [{ type: 'text', text }] : [];
}

function blocksOf(m: MessageFields, path: string): WireRecord[] | undefined {
  if (typeof m.content === 'string') return textBlocks(m.content);
  const extras = indexedExtras(m.metadata?.[META.parts]);
  const out: WireRecord[] = [];
  m.content.forEach((part, j) => {
    const partPath = `${path}.content[${j}]`;
    const block = memPartToAnthropic(part, m.role, partPath, toFail);
    if (block !== undefined)
      out.push(part.type === 'provider' ? block : mergeExtra(block, extras(j)));
  });
  return out.length === 0 && m.content.length > 0 ? undefined : out;
}

function toolUseBlock(call: ToolCall, path: string): WireRecord {
  let input: unknown;
  try {
    input = JSON.parse(call.arguments);
  } catch (cause) {
    throw toFail(
      `${path}.arguments`,
      'is not valid JSON',
      'Fix the arguments or drop the call.',
      cause,
    );
  }
  if (!isRecord(input)) {
    throw toFail(
      `${path}.arguments`,
      'is JSON but not an object',
      'Anthropic tool inputs are objects.',
    );
  }
  return { type: 'tool_use', id: call.id, name: call.name, input };
}

/**
 * The `tool_result` block of a mem tool message; `withResidue` re-applies what
 * `mem.anthropic.block` kept of the original block.
 */
export function toolResultBlock(m: MessageFields, path: string, withResidue = false): WireRecord {
  if (m.toolCallId === undefined) {
    throw toFail(
      `${path}.toolCallId`,
      'is missing on a tool message',
      'Set it to the id of the call it answers.',
    );
  }
  const content = typeof m.content === 'string' ? m.content : (blocksOf(m, path) ?? '');
  const block: WireRecord = { type: 'tool_result', tool_use_id: m.toolCallId, content };
  if (m.isError !== undefined) block.is_error = m.isError;
  return withResidue ? applyResidue(block, m.metadata?.[META.block]) : block;
}
