import type { Message } from '../message.ts';
import { wireInputFail } from './conversion-error.ts';
import { type FromWireOptions, messageStamper, setMetadata } from './convert-options.ts';
import { OPENAI_META as META } from './openai-meta.ts';
import { readMessage } from './openai-read.ts';
import type { OpenAIChatMessage } from './openai-types.ts';
import { messageToOpenAI } from './openai-write.ts';
import { applyResidue, fieldResidue, isRecord } from './wire-fields.ts';

const fromFail = wireInputFail('openai');

/**
 * Converts Chat Completions request messages to mem messages. `developer` becomes `system`
 * (remembered in metadata); a tool message's `toolName` comes from the assistant tool call it
 * answers. Whatever mem has no field for is kept in `mem.openai.*` metadata, so
 * `toOpenAIMessages` gives the input back unchanged.
 */
export function fromOpenAIMessages(
  messages: readonly OpenAIChatMessage[],
  options?: FromWireOptions,
): Message[] {
  if (!Array.isArray(messages)) {
    throw fromFail(
      'messages',
      'is not an array',
      'Pass the `messages` array of a Chat Completions request.',
    );
  }
  const stamp = messageStamper(options);
  const callNames = new Map<string, string>();
  return messages.map((raw: unknown, i) => {
    const path = `messages[${i}]`;
    if (!isRecord(raw))
      throw fromFail(path, 'is not an object', 'Each message must be an object with a role.');
    const fields = readMessage(raw, path, callNames);
    setMetadata(fields, META.message, fieldResidue(raw, messageToOpenAI(fields, path) ?? {}));
    return stamp(fields);
  });
}

/**
 * Converts mem messages to Chat Completions request messages. Reasoning parts and other
 * formats' provider parts are left out (a message left with nothing is skipped); `isError`
 * has no OpenAI field and is dropped.
 */
export function toOpenAIMessages(messages: readonly Message[]): OpenAIChatMessage[] {
  const out: OpenAIChatMessage[] = [];
  messages.forEach((message, i) => {
    const wire = messageToOpenAI(message, `messages[${i}]`);
    if (wire === undefined) return;
    out.push(applyResidue(wire, message.metadata?.[META.message]) as unknown as OpenAIChatMessage);
  });
  return out;
}
