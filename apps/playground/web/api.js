/**
 * The playground server's JSON API (src/server). Every call resolves with the parsed body or
 * rejects with an ApiError that carries the status and body.
 */

export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {any} body
   */
  constructor(status, body) {
    super(body && typeof body.error === 'string' ? body.error : `HTTP ${status}`);
    this.status = status;
    this.body = body;
  }
}

/**
 * @param {string} path
 * @param {{ body?: unknown, signal?: AbortSignal | undefined }} [options]
 */
async function call(path, options = {}) {
  /** @type {RequestInit} */
  const init =
    options.body === undefined
      ? { method: 'GET' }
      : {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(options.body),
        };
  if (options.signal) init.signal = options.signal;
  const response = await fetch(path, init);
  const body = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, body);
  return body;
}

export const api = {
  config: () => call('/api/config'),
  /**
   * @param {string} profileText the editor's text; the server parses it and reports syntax errors
   * @param {AbortSignal} [signal]
   */
  validate: (profileText, signal) =>
    call('/api/validate', { body: { profile: profileText }, signal }),
  /**
   * @param {{ profile: string, store: string, conversation?: string, turns?: number }} request
   * @param {AbortSignal} [signal]
   */
  replay: (request, signal) => call('/api/replay', { body: request, signal }),
  /**
   * The turn's detail, with one page of its history (see history-list.js).
   * @param {number} index
   * @param {{ historyLimit: number, historyOffset?: number, historyAround?: string }} page
   * @param {AbortSignal} [signal]
   */
  turn: (index, page, signal) => {
    const query = new URLSearchParams(Object.entries(page).map(([k, v]) => [k, String(v)]));
    return call(`/api/turn/${index}?${query}`, { signal });
  },
  /**
   * The context the next LLM call would get for this question after the last replay; nothing is
   * stored.
   * @param {string} question
   * @param {AbortSignal} [signal]
   */
  ask: (question, signal) => call('/api/ask', { body: { question }, signal }),
  /** @param {string} message */
  chat: (message) => call('/api/chat', { body: { message } }),
};
