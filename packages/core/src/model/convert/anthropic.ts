import type { Message, Role } from '../message.ts';
import { ANTHROPIC_META as META } from './anthropic-meta.ts';
import { readMessage, readSystem } from './anthropic-read.ts';
import type { AnthropicInput, AnthropicMessageParam, AnthropicPrompt } from './anthropic-types.ts';
import { contentOf, systemParam, toolResultBlock } from './anthropic-write.ts';
import { memInputFail, wireInputFail } from './conversion-error.ts';
import {
  type FromWireOptions,
  type MessageFields,
  messageStamper,
  setMetadata,
} from './convert-options.ts';
import { checkMemMessage, guarded, memMessages } from './guard-input.ts';
import { applyResidue, extraFields, isRecord, type WireRecord } from './wire-fields.ts';

const fromFail = wireInputFail('anthropic');
const toFail = memInputFail('anthropic');

/**
 * Converts an Anthropic request's `system` and `messages` to mem messages. `system` becomes a
 * leading system message; each `tool_result` block becomes a mem `tool` message (named after its
 * `tool_use`), other user blocks a user message. Roles in `messages` are `user` and `assistant`:
 * a `system` entry there is refused (the Anthropic API refuses it too), pass it as `system`.
 * Whatever mem has no field for is kept in `mem.anthropic.*` metadata, so `toAnthropicMessages`
 * gives the input back unchanged.
 */
export function fromAnthropicMessages(input: AnthropicInput, options?: FromWireOptions): Message[] {
  return guarded(fromFail, 'messages', () => {
    if (!isRecord(input) || !Array.isArray(input.messages)) {
      throw fromFail(
        'messages',
        'is not an array',
        'Pass { system?, messages } as sent to messages.create.',
      );
    }
    const out: MessageFields[] = [];
    const system = input.system;
    if (system !== undefined)
      out.push(guarded(fromFail, 'system', () => readSystem(system, 'system')));
    const callNames = new Map<string, string>();
    input.messages.forEach((raw: unknown, i) => {
      const path = `messages[${i}]`;
      out.push(...guarded(fromFail, path, () => readGroup(raw, path, out.at(-1), callNames)));
    });
    return out.map(messageStamper(options));
  });
}

/** The mem messages of one Anthropic message, `previous` being the last one read before it. */
function readGroup(
  raw: unknown,
  path: string,
  previous: MessageFields | undefined,
  callNames: Map<string, string>,
): MessageFields[] {
  if (!isRecord(raw))
    throw fromFail(path, 'is not an object', 'Each message needs a role and content.');
  const group = readMessage(raw, path, callNames);
  const extra = extraFields(raw, ['role', 'content']);
  if (extra !== undefined) setMetadata(group[0]!, META.message, { set: extra });
  group.forEach((m, k) => {
    const before = k === 0 ? previous : group[k - 1];
    const mergesByDefault = m.role === 'tool' && before?.role === 'tool';
    if (k > 0 !== mergesByDefault) setMetadata(m, META.continues, k > 0);
  });
  return group;
}

/**
 * Converts mem messages to an Anthropic request's `system` and `messages`. Every system message
 * (system prompts, the summary, retrieved knowledge, wherever it stands) goes to `system`, in
 * order: the API takes system content nowhere else. Consecutive tool results share one user
 * message. Parts Anthropic has no place for (reasoning without a signature, other formats'
 * provider parts) are left out, and a message left with nothing is skipped.
 */
export function toAnthropicMessages(messages: readonly Message[]): AnthropicPrompt {
  const list = memMessages(messages, toFail);
  const system: [Message, string][] = [];
  const out: WireRecord[] = [];
  let lastRole: Role | undefined;
  list.forEach((m, i) => {
    const path = `messages[${i}]`;
    guarded(toFail, path, () => {
      checkMemMessage(m, path, toFail);
      if (m.role === 'system') {
        system.push([m, path]);
        return;
      }
      const content = m.role === 'tool' ? [toolResultBlock(m, path, true)] : contentOf(m, path);
      if (content === undefined) return;
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
        const wire = applyResidue({ content }, m.metadata?.[META.message]);
        // The role is never taken from metadata: a residue cannot make this a system message.
        out.push({ role: m.role === 'tool' ? 'user' : m.role, ...withoutRole(wire) });
      }
      lastRole = m.role;
    });
  });
  const prompt: AnthropicPrompt = { messages: out as unknown as AnthropicMessageParam[] };
  if (system.length > 0) {
    prompt.system = guarded(toFail, system[0]![1], () => systemParam(system));
  }
  return prompt;
}

function withoutRole(wire: WireRecord): WireRecord {
  const { role: _role, ...rest } = wire;
  return rest;
}
