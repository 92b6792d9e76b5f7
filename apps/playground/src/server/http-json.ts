import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorDetails, ErrorResponse } from './contract.ts';

/** Largest request body the server reads. */
export const MAX_BODY_BYTES = 5 * 1024 * 1024;

/** An error that becomes a JSON response `{ error, ...extra }` with this status. */
export class HttpError extends Error {
  readonly status: number;
  readonly extra: ErrorDetails;

  constructor(status: number, message: string, extra: ErrorDetails = {}) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
    this.extra = extra;
  }
}

/** The answer for an error: `{ error, ...extra }`. */
export function errorBody(error: HttpError): ErrorResponse {
  return { error: error.message, ...error.extra };
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
  });
  res.end(text);
}

/**
 * Reads a JSON object body. Rejects with 415 unless it is sent as `application/json` (so another
 * site cannot post to the loopback server with a plain form), 413 past 5 MB, 400 when it is not a
 * JSON object.
 */
export async function readJsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const type = req.headers['content-type'] ?? '';
  if (!/^application\/json\b/i.test(type)) {
    throw new HttpError(415, 'Send the body as JSON with "content-type: application/json".');
  }
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw tooLarge();
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new HttpError(400, `The request body is not valid JSON: ${(error as Error).message}.`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new HttpError(400, 'The request body must be a JSON object.');
  }
  return value as Record<string, unknown>;
}

function tooLarge(): HttpError {
  return new HttpError(413, `The request body is larger than ${MAX_BODY_BYTES / 1024 / 1024} MB.`);
}
