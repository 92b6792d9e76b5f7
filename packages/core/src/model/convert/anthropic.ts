import type { Message, Role } from '../message.ts';
import { ANTHROPIC_META as META } from './anthropic-meta.ts';
import { readMessage, readSystem } from './anthropic-read.ts';
import type { AnthropicInput, AnthropicMessageParam, AnthropicPrompt } from './anthropic-types.ts';
import { contentOf, systemParam, toolResultBlock } from './anthropic-write.ts';
import { wireInputFail } from './conversion-error.ts';
import {
  type FromWireOptions,
  type MessageFields,
  messageStamper,
  setMetadata,
} from './convert-options.ts';
import { applyResidue, extraFields, isRecord, type WireRecord } from './wire-fields.ts';

const fromFail = wireInputFail('anthropic');

/**
 * Converts an Anthropic request's `system` and `messages` to mem messages. `system` becomes a
 * leading system message; each `tool_result` block becomes a mem `tool` message (named after its
 * `tool_use`), other user blocks a user message. Whatever mem has no field for is kept in
 * `mem.anthropic.*` metadata, so `toAnthropicMessages` gives the input back unchanged.
 */
export function fromAnthropicMessages(input: AnthropicInput, options?: FromWireOptions): Message[] {
  if (!isRecord(input) || !Array.isArray(input.messages)) {
    throw fromFail(
      'messages',
      'is not an array',
      'Pass { system?, messages } as sent to messages.create.',
    );
  }
  const out: MessageFields[] = [];
  if (input.system !== undefined) out.push(readSystem(input.system, 'system'));
  const callNames = new Map<string, string>();
  input.messages.forEach((raw: unknown, i) => {
    const path = `messages[${i}]`;
    if (!isRecord(raw))
      throw fromFail(path, 'is not an object', 'Each message needs a role and content.');
    const group = readMessage(raw, path, callNames);
    const extra = extraFields(raw, ['role', 'content']);
    if (extra !== undefined) setMetadata(group[0]!, META.message, { set: extra });
    group.forEach((m, k) => {
      const previous = k === 0 ? out.at(-1) : group[k - 1];
      const mergesByDefault = m.role === 'tool' && previous?.role === 'tool';
      if (k > 0 !== mergesByDefault) setMetadata(m, META.continues, k > 0);
    });
    out.push(...group);
  });
  return out.map(messageStamper(options));
}

/**
 * Converts mem messages to an Anthropic request's `system` and `messages`. Leading system
 * messages become `system`; consecutive tool results share one user message. Parts Anthropic
 * has no place for (reasoning without a signature, other formats' provider parts) are left out,
 * and a message left with nothing is skipped.
 */
export function toAnthropicMessages(messages: readonly Message[]): AnthropicPrompt {
  let i = 0;
  const leading: Message[] = [];
  for (; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role !== 'system' || m.metadata?.[META.placement] === 'message') break;
    leading.push(m);
  }
  const prompt: AnthropicPrompt = { messages: [] };
  if (leading.length > 0) prompt.system = systemParam(leading);
  const out: WireRecord[] = [];
  let lastRole: Role | undefined;
  for (; i < messages.length; i++) {
    const m = messages[i]!;
    const path = `messages[${i}]`;
    const content = m.role === 'tool' ? [toolResultBlock(m, path, true)] : contentOf(m, path);
    if (content === undefined) continue;
    const last = out.at(-1);
    const flag = m.metadata?.[META.continues];
    const wants = typeof flag === 'boolean' ? flag : m.role === 'tool' && lastRole === 'tool';
    if (
      wants &&
      (m.role === 'user' || m.role === 'tool') &&
      last?.role === 'user' &&
      Array.isArray(last.content)
    ) {
      if (typeof content === 'string') {
        if (content.length > 0) last.content.push({ type: 'text', text: content });
      } else last.content.push(...content);
    } else {
      const role = m.role === 'tool' ? 'user' : m.role;
      out.push(applyResidue({ role, content }, m.metadata?.[META.message]));
    }
    lastRole = m.role;
  }
  prompt.messages = out as unknown as AnthropicMessageParam[];
  return prompt;
}
