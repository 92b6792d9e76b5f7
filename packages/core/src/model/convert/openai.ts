import type { Message } from '../message.ts';
import { memInputFail, wireInputFail } from './conversion-error.ts';
import { type FromWireOptions, messageStamper, setMetadata } from './convert-options.ts';
import { checkMemMessage, guarded, memMessages } from './guard-input.ts';
import { OPENAI_META as META } from './openai-meta.ts';
import { readMessage } from './openai-read.ts';
import { requestFields, requestResidue } from './openai-response-fields.ts';
import type { OpenAIChatMessage, OpenAIChatMessageInput } from './openai-types.ts';
import { messageToOpenAI } from './openai-write.ts';
import { applyResidue, fieldResidue, isRecord } from './wire-fields.ts';

const fromFail = wireInputFail('openai');
const toFail = memInputFail('openai');

/**
 * Converts Chat Completions messages to mem messages: request messages, and the assistant
 * message of a response (`completion.choices[0].message`). `developer` becomes `system`
 * (remembered in metadata). A tool message's `toolName` comes from the assistant tool call it
 * answers when that call is in the same batch; a tool result whose call was converted in an
 * earlier step (an agent loop appending one message at a time) keeps its `toolCallId` and has no
 * `toolName`. A refusal becomes the message text. Whatever else mem has no field for is kept in
 * `mem.openai.*` metadata, so `toOpenAIMessages` gives request messages back unchanged.
 * Response-only fields are never sent back: `annotations` (kept as `mem.openai.annotations`),
 * `refusal`/`audio`/`function_call` set to `null`, and a response's audio beyond its `id`.
 */
export function fromOpenAIMessages(
  messages: readonly OpenAIChatMessageInput[],
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
  return guarded(fromFail, 'messages', () =>
    messages.map((raw: unknown, i) => {
      const path = `messages[${i}]`;
      const fields = guarded(fromFail, path, () => {
        if (!isRecord(raw))
          throw fromFail(path, 'is not an object', 'Each message must be an object with a role.');
        const { request, extras } = requestFields(raw);
        const read = readMessage(request, path, callNames);
        setMetadata(read, META.message, fieldResidue(request, messageToOpenAI(read, path) ?? {}));
        setMetadata(read, META.annotations, extras.annotations);
        return read;
      });
      return stamp(fields);
    }),
  );
}

/**
 * Converts mem messages to Chat Completions request messages. Reasoning parts and other
 * formats' provider parts are left out (a message left with nothing is skipped); `isError`
 * has no OpenAI field and is dropped.
 */
export function toOpenAIMessages(messages: readonly Message[]): OpenAIChatMessage[] {
  const out: OpenAIChatMessage[] = [];
  memMessages(messages, toFail).forEach((message, i) => {
    const path = `messages[${i}]`;
    guarded(toFail, path, () => {
      checkMemMessage(message, path, toFail);
      const wire = messageToOpenAI(message, path);
      if (wire === undefined) return;
      let residue = message.metadata?.[META.message];
      if (message.role === 'assistant') residue = requestResidue(residue);
      out.push(applyResidue(wire, residue) as unknown as OpenAIChatMessage);
    });
  });
  return out;
}
