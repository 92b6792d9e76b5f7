import type { Message } from '../message.ts';
import { AI_SDK_META as META } from './ai-sdk-meta.ts';
import { readMessage, readToolMessage } from './ai-sdk-read.ts';
import type { ModelMessageInput, ModelMessageLike } from './ai-sdk-types.ts';
import { messageToAiSdk, toolMessageItems, toolResultPart } from './ai-sdk-write.ts';
import { memInputFail, wireInputFail } from './conversion-error.ts';
import {
  type FromWireOptions,
  type MessageFields,
  messageStamper,
  setMetadata,
} from './convert-options.ts';
import { checkMemMessage, guarded, memMessages } from './guard-input.ts';
import {
  applyResidue,
  extraFields,
  fieldResidue,
  isRecord,
  type WireRecord,
} from './wire-fields.ts';

const fromFail = wireInputFail('ai-sdk');
const toFail = memInputFail('ai-sdk');

/** True for mem messages that live in an AI SDK tool message. */
function inToolMessage(m: MessageFields): boolean {
  return m.role === 'tool' || (m.role === 'assistant' && m.metadata?.[META.role] === 'tool');
}

/**
 * Converts AI SDK `ModelMessage`s (v6 or v7: a prompt, `result.response.messages` or v7's
 * `result.responseMessages`) to mem messages. Each `tool-result` of a tool message becomes a mem
 * tool message; its output becomes the content (`isError` for error outputs). v7 tagged file
 * data (`{ type: 'data' | 'url', ... }`) becomes typed file and image parts. Parts mem has no
 * type for (provider references, custom and reasoning-file parts...) and every
 * `providerOptions` are kept (verbatim parts, `mem.ai-sdk.*` metadata), so `toModelMessages`
 * gives the input back unchanged.
 */
export function fromModelMessages(
  messages: readonly ModelMessageInput[],
  options?: FromWireOptions,
): Message[] {
  if (!Array.isArray(messages)) {
    throw fromFail(
      'messages',
      'is not an array',
      'Pass the ModelMessage[] given to generateText or streamText.',
    );
  }
  const out: MessageFields[] = [];
  const calls = new Set<string>();
  guarded(fromFail, 'messages', () =>
    messages.forEach((raw: unknown, i) => {
      const path = `messages[${i}]`;
      out.push(...guarded(fromFail, path, () => readOne(raw, path, out.at(-1), calls)));
    }),
  );
  return out.map(messageStamper(options));
}

/** The mem messages of one ModelMessage, `previous` being the last one read before it. */
function readOne(
  raw: unknown,
  path: string,
  previous: MessageFields | undefined,
  calls: Set<string>,
): MessageFields[] {
  if (!isRecord(raw))
    throw fromFail(path, 'is not an object', 'Each message needs a role and content.');
  if (raw.role !== 'tool') {
    const fields = readMessage(raw, path, calls);
    setMetadata(fields, META.message, fieldResidue(raw, messageToAiSdk(fields, path) ?? {}));
    return [fields];
  }
  const group = readToolMessage(raw, path, calls);
  const first = group[0]!;
  const extra = extraFields(raw, ['role', 'content']);
  if (extra !== undefined) setMetadata(first, META.message, { set: extra });
  if (previous !== undefined && inToolMessage(previous)) setMetadata(first, META.continues, false);
  return group;
}

/**
 * Converts mem messages to AI SDK `ModelMessage`s (v6 and v7); consecutive tool results share
 * one tool message. Other formats' provider parts are left out (a message left with nothing is
 * skipped). System messages stay in the list: for v7, which refuses them there by default, use
 * `toModelPrompt`.
 */
export function toModelMessages(messages: readonly Message[]): ModelMessageLike[] {
  const out: WireRecord[] = [];
  let lastInTool = false;
  memMessages(messages, toFail).forEach((m, i) => {
    const path = `messages[${i}]`;
    guarded(toFail, path, () => {
      checkMemMessage(m, path, toFail);
      if (inToolMessage(m)) {
        const items = m.role === 'tool' ? [toolResultPart(m, path)] : toolMessageItems(m);
        const last = out.at(-1);
        const joins = lastInTool && m.metadata?.[META.continues] !== false;
        if (joins && last?.role === 'tool' && Array.isArray(last.content))
          last.content.push(...items);
        else out.push(applyResidue({ role: 'tool', content: items }, m.metadata?.[META.message]));
        lastInTool = true;
        return;
      }
      const wire = messageToAiSdk(m, path);
      if (wire === undefined) return;
      out.push(applyResidue(wire, m.metadata?.[META.message]));
      lastInTool = false;
    });
  });
  return out as unknown as ModelMessageLike[];
}
