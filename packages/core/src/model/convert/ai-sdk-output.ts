import { type ContentPart, messageText } from '../message.ts';
import { AI_SDK_META as META } from './ai-sdk-meta.ts';
import { memPartToOutputItem, outputItemToMem } from './ai-sdk-parts.ts';
import { memInputFail, wireInputFail } from './conversion-error.ts';
import { type MessageFields, setMetadata } from './convert-options.ts';
import {
  applyResidue,
  faithfulPart,
  fieldResidue,
  indexedExtras,
  isRecord,
  mergeExtra,
  type WireRecord,
} from './wire-fields.ts';

const fromFail = wireInputFail('ai-sdk');
const toFail = memInputFail('ai-sdk');

/**
 * Reads a tool result's `output` into a mem tool message: text and error text become the
 * content string, JSON its text (type kept in metadata), `content` items typed parts, and the
 * error kinds and `execution-denied` set `isError`.
 */
export function readToolOutput(fields: MessageFields, output: unknown, path: string): void {
  if (!isRecord(output)) {
    throw fromFail(
      path,
      'is not an object',
      'Give the output as e.g. {"type":"text","value":"..."}.',
    );
  }
  const { type, value } = output;
  switch (type) {
    case 'text':
    case 'error-text':
      if (typeof value !== 'string')
        throw fromFail(`${path}.value`, 'is not a string', `A ${type} output holds text.`);
      fields.content = value;
      break;
    case 'json':
    case 'error-json': {
      const text = value === undefined ? undefined : JSON.stringify(value);
      if (text === undefined)
        throw fromFail(`${path}.value`, 'is not JSON', `Give the ${type} output a JSON value.`);
      fields.content = text;
      setMetadata(fields, META.outputType, type);
      break;
    }
    case 'execution-denied':
      fields.content = typeof output.reason === 'string' ? output.reason : '';
      setMetadata(fields, META.outputType, type);
      break;
    case 'content':
      readItems(fields, value, `${path}.value`);
      break;
    default:
      // An output type mem does not know: the residue below keeps it whole.
      break;
  }
  if (type === 'error-text' || type === 'error-json' || type === 'execution-denied')
    fields.isError = true;
  setMetadata(fields, META.output, fieldResidue(output, toolOutputOf(fields, path)));
}

function readItems(fields: MessageFields, value: unknown, path: string): void {
  if (!Array.isArray(value))
    throw fromFail(path, 'is not an array', 'A content output holds a list of items.');
  const parts: ContentPart[] = [];
  const extras: Record<string, WireRecord> = {};
  value.forEach((item: unknown, j) => {
    if (!isRecord(item) || typeof item.type !== 'string') {
      throw fromFail(
        `${path}[${j}]`,
        'is not an item with a type',
        'Each item needs a "type" field.',
      );
    }
    const read = faithfulPart('ai-sdk', item, outputItemToMem, (p) =>
      memPartToOutputItem(p, path, toFail),
    );
    parts.push(read.part);
    if (read.extra !== undefined) extras[String(j)] = read.extra;
  });
  fields.content = parts;
  if (Object.keys(extras).length > 0) setMetadata(fields, META.parts, extras);
}

/** The `output` of the tool result a mem tool message holds. */
export function toolOutputOf(m: MessageFields, path: string): WireRecord {
  const type = m.metadata?.[META.outputType];
  if ((type === 'json' || type === 'error-json') && typeof m.content === 'string') {
    try {
      return { type, value: JSON.parse(m.content) };
    } catch {
      // Not JSON (edited content): fall back to a text output below.
    }
  }
  if (type === 'execution-denied') {
    const reason = messageText(m);
    return reason.length > 0 ? { type, reason } : { type };
  }
  if (typeof m.content === 'string')
    return { type: m.isError === true ? 'error-text' : 'text', value: m.content };
  if (m.isError === true) return { type: 'error-text', value: messageText(m) };
  const extras = indexedExtras(m.metadata?.[META.parts]);
  const items: WireRecord[] = [];
  m.content.forEach((part, j) => {
    const item = memPartToOutputItem(part, `${path}.content[${j}]`, toFail);
    if (item !== undefined)
      items.push(part.type === 'provider' ? item : mergeExtra(item, extras(j)));
  });
  return { type: 'content', value: items };
}

/** `toolOutputOf` with the stored residue applied. */
export function restoredToolOutput(m: MessageFields, path: string): WireRecord {
  return applyResidue(toolOutputOf(m, path), m.metadata?.[META.output]);
}
