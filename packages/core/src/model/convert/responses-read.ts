import type { ContentPart, ToolCall } from '../message.ts';
import { wireInputFail } from './conversion-error.ts';
import { type MessageFields, setMetadata } from './convert-options.ts';
import { guarded } from './guard-input.ts';
import { type LayoutEntry, RESPONSES_META as META } from './responses-meta.ts';
import { readPart } from './responses-parts.ts';
import { assistantItems, contentItem, toolItem } from './responses-write.ts';
import { fieldResidue, isRecord, type WireRecord } from './wire-fields.ts';

const fail = wireInputFail('openai-responses');

/**
 * Reads Responses items into message fields. User, system and developer messages and function
 * call outputs are one message each; a run of assistant-side items (assistant messages, function
 * calls, reasoning and every other item type) becomes one assistant message whose layout is kept,
 * so the run is rebuilt item by item.
 */
export function readItems(items: readonly unknown[]): MessageFields[] {
  const out: MessageFields[] = [];
  const callNames = new Map<string, string>();
  let run: Run | undefined;
  items.forEach((raw, i) => {
    const path = `items[${i}]`;
    guarded(fail, path, () => readItem(raw, path));
  });
  return out;

  function readItem(raw: unknown, path: string): void {
    if (!isRecord(raw))
      throw fail(path, 'is not an object', 'Each item must be an object with a type or a role.');
    const role = raw.role;
    const isMessage = raw.type === 'message' || (raw.type === undefined && role !== undefined);
    if (raw.type === undefined && role === undefined) {
      throw fail(
        path,
        'has neither a type nor a role',
        'Pass Responses API input or output items.',
      );
    }
    if (isMessage && role !== 'assistant') {
      run = undefined;
      out.push(readContentMessage(raw, path));
      return;
    }
    if (raw.type === 'function_call_output') {
      run = undefined;
      out.push(readOutput(raw, path, callNames));
      return;
    }
    if (run === undefined) {
      run = new Run();
      out.push(run.fields);
    }
    if (isMessage) run.message(raw, path);
    else if (raw.type === 'function_call') callNames.set(...run.call(raw, path));
    else run.verbatim(raw);
  }
}

function readContentMessage(raw: WireRecord, path: string): MessageFields {
  const { role } = raw;
  if (role !== 'user' && role !== 'system' && role !== 'developer') {
    throw fail(
      `${path}.role`,
      `is ${JSON.stringify(role)}`,
      'Use one of user, assistant, system, developer.',
    );
  }
  const fields: MessageFields = { role: role === 'user' ? 'user' : 'system', content: '' };
  if (role === 'developer') setMetadata(fields, META.role, 'developer');
  const extras = readContent(fields, [], raw.content, `${path}.content`);
  if (extras !== undefined) setMetadata(fields, META.parts, extras);
  setMetadata(fields, META.item, fieldResidue(raw, contentItem(fields) ?? {}));
  return fields;
}

function readOutput(raw: WireRecord, path: string, callNames: Map<string, string>): MessageFields {
  const id = raw.call_id;
  if (typeof id !== 'string' || id.length === 0) {
    throw fail(
      `${path}.call_id`,
      'is not a non-empty string',
      'Set it to the call_id of the function_call it answers.',
    );
  }
  // A call read in an earlier step is not in `callNames`: the name stays unknown.
  const fields: MessageFields = { role: 'tool', content: '', toolCallId: id };
  const name = callNames.get(id);
  if (name !== undefined) fields.toolName = name;
  const extras = readContent(fields, [], raw.output, `${path}.output`);
  if (extras !== undefined) setMetadata(fields, META.parts, extras);
  setMetadata(fields, META.item, fieldResidue(raw, toolItem(fields)));
  return fields;
}

/**
 * Reads a string or a list of parts into `fields.content` (appending to `parts` when the message
 * already has some); returns the parts' extra fields by content index.
 */
function readContent(
  fields: MessageFields,
  parts: ContentPart[],
  value: unknown,
  path: string,
): Record<string, WireRecord> | undefined {
  if (typeof value === 'string' && parts.length === 0) {
    fields.content = value;
    return undefined;
  }
  if (!Array.isArray(value)) {
    throw fail(
      path,
      'is neither a string nor an array of content parts',
      'Pass text as a string or as parts such as {"type":"input_text","text":"..."}.',
    );
  }
  const extras: Record<string, WireRecord> = {};
  value.forEach((item: unknown, j) => {
    if (!isRecord(item) || typeof item.type !== 'string') {
      throw fail(`${path}[${j}]`, 'is not a content part with a type', 'Each part needs a "type".');
    }
    const read = readPart(item);
    if (read.extra !== undefined) extras[String(parts.length)] = read.extra;
    parts.push(read.part);
  });
  fields.content = parts;
  return Object.keys(extras).length > 0 ? extras : undefined;
}

/** One assistant message being read from a run of items. */
class Run {
  readonly fields: MessageFields = { role: 'assistant', content: [] };
  readonly #parts: ContentPart[] = [];
  readonly #calls: ToolCall[] = [];
  readonly #layout: LayoutEntry[] = [];
  #extras: Record<string, WireRecord> = {};

  message(raw: WireRecord, path: string): void {
    const before = this.#parts.length;
    const entry: LayoutEntry & { item: 'message' } = { item: 'message', parts: 0 };
    if (typeof raw.content === 'string') {
      this.#parts.push({ type: 'text', text: raw.content });
      entry.text = true;
    } else {
      const scratch: MessageFields = { role: 'assistant', content: '' };
      const extras = readContent(scratch, this.#parts, raw.content, `${path}.content`);
      this.#extras = { ...this.#extras, ...extras };
    }
    entry.parts = this.#parts.length - before;
    this.#layout.push(entry);
    const rebuilt = assistantItems(this.#snapshot(), [entry], before, 0)[0] ?? {};
    const residue = fieldResidue(raw, rebuilt);
    if (residue !== undefined) entry.residue = residue;
    this.#sync();
  }

  call(raw: WireRecord, path: string): [string, string] {
    const { call_id: id, name, arguments: args } = raw;
    if (typeof id !== 'string' || id.length === 0)
      throw fail(
        `${path}.call_id`,
        'is not a non-empty string',
        'Keep the call_id the model gave.',
      );
    if (typeof name !== 'string' || typeof args !== 'string') {
      throw fail(path, 'needs a string name and string arguments', 'Pass arguments as JSON text.');
    }
    this.#calls.push({ id, name, arguments: args });
    const entry: LayoutEntry & { item: 'call' } = { item: 'call' };
    const residue = fieldResidue(raw, {
      type: 'function_call',
      call_id: id,
      name,
      arguments: args,
    });
    if (residue !== undefined) entry.residue = residue;
    this.#layout.push(entry);
    this.#sync();
    return [id, name];
  }

  verbatim(raw: WireRecord): void {
    this.#parts.push({ type: 'provider', format: 'openai-responses', value: raw });
    this.#layout.push({ item: 'verbatim' });
    this.#sync();
  }

  #snapshot(): MessageFields {
    const fields: MessageFields = { role: 'assistant', content: [...this.#parts] };
    if (Object.keys(this.#extras).length > 0) setMetadata(fields, META.parts, this.#extras);
    return fields;
  }

  /** Writes the parts, calls and layout read so far into `fields`. */
  #sync(): void {
    const f = this.fields;
    const first = this.#parts[0];
    const plain = isDefaultLayout(this.#layout, this.#parts, this.#calls.length);
    f.content =
      plain && this.#layout[0]?.item === 'message' && first?.type === 'text'
        ? first.text
        : plain && this.#parts.length === 0
          ? ''
          : [...this.#parts];
    if (this.#calls.length > 0) f.toolCalls = [...this.#calls];
    const meta: Record<string, unknown> = {};
    if (Object.keys(this.#extras).length > 0) meta[META.parts] = this.#extras;
    if (!plain) meta[META.layout] = this.#layout;
    if (Object.keys(meta).length > 0) f.metadata = meta;
    else delete f.metadata;
  }
}

/**
 * True when the layout is what `toResponsesInput` writes without one: one plain string message
 * (non-empty, unless there are no calls), then the calls, all without extra fields.
 */
function isDefaultLayout(
  layout: readonly LayoutEntry[],
  parts: readonly ContentPart[],
  calls: number,
): boolean {
  let k = 0;
  const head = layout[0];
  if (head?.item === 'message') {
    const text = parts[0]?.type === 'text' ? parts[0].text : undefined;
    if (head.text !== true || head.residue !== undefined || text === undefined) return false;
    if (text.length === 0 && calls > 0) return false;
    k = 1;
  }
  for (; k < layout.length; k++) {
    const entry = layout[k]!;
    if (entry.item !== 'call' || entry.residue !== undefined) return false;
  }
  return true;
}
