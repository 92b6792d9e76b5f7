import { isRecord, setField, type WireRecord } from './wire-fields.ts';

/**
 * Chat Completions *response* messages (`ChatCompletionMessage`) carry fields a request never
 * needs: `annotations`, and `refusal`, `audio`, `function_call` set to `null`. Sent back, they
 * are noise at best and rejected by stricter servers at worst, so mem never echoes them.
 */

const NULLABLE: readonly string[] = ['refusal', 'audio', 'function_call'];

/** Response-only fields worth keeping for the application (never sent back). */
export interface ResponseExtras {
  /** Non-empty `annotations` (URL citations) of a response message. */
  annotations?: unknown[];
}

/**
 * The message as a request would carry it: `annotations` removed, `null` refusal, audio and
 * function_call removed, a response's audio object reduced to the `{ id }` a request takes.
 */
export function requestFields(
  wire: WireRecord,
  assistant = wire.role === 'assistant',
): { request: WireRecord; extras: ResponseExtras } {
  const request: WireRecord = {};
  const extras: ResponseExtras = {};
  for (const [key, value] of Object.entries(wire)) {
    if (key === 'annotations') {
      if (Array.isArray(value) && value.length > 0) extras.annotations = value;
      continue;
    }
    if (assistant && value === null && NULLABLE.includes(key)) continue;
    if (assistant && key === 'audio' && isRecord(value) && 'id' in value) {
      request.audio = { id: value.id };
      continue;
    }
    setField(request, key, value);
  }
  return { request, extras };
}

/** Removes response-only fields from an assistant message's stored residue (earlier versions kept them). */
export function requestResidue(residue: unknown): unknown {
  if (!isRecord(residue) || !isRecord(residue.set)) return residue;
  return { ...residue, set: requestFields(residue.set, true).request };
}
