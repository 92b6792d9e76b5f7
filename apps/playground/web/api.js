/**
 * The playground server's JSON API (src/server). Every call resolves with the parsed body or
 * rejects with an ApiError that carries the status and body. The payload types are the server's
 * own (src/server/contract.ts), so `tsc -p web` checks what the page sends and reads.
 */

/**
 * @typedef {import('../src/server/contract.ts').AskResponse} AskResponse
 * @typedef {import('../src/server/contract.ts').ChatResponse} ChatResponse
 * @typedef {import('../src/server/contract.ts').ConfigResponse} ConfigResponse
 * @typedef {import('../src/server/contract.ts').ErrorResponse} ErrorResponse
 * @typedef {import('../src/server/contract.ts').ForgetUserResponse} ForgetUserResponse
 * @typedef {import('../src/server/contract.ts').ReplayRequest} ReplayRequest
 * @typedef {import('../src/server/contract.ts').ReplayResponse} ReplayResponse
 * @typedef {import('../src/server/contract.ts').TurnPageResponse} TurnPageResponse
 * @typedef {import('../src/server/contract.ts').TurnQuery} TurnQuery
 * @typedef {import('../src/server/contract.ts').UserFactsResponse} UserFactsResponse
 * @typedef {import('../src/server/contract.ts').ValidateResponse} ValidateResponse
 */

export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {ErrorResponse | null} body null when the answer was not JSON
   */
  constructor(status, body) {
    super(body && typeof body.error === 'string' ? body.error : `HTTP ${status}`);
    this.status = status;
    this.body = body;
  }
}

/**
 * @template T the answer's body (contract.ts)
 * @param {string} path
 * @param {{ body?: unknown, signal?: AbortSignal | undefined }} [options]
 * @returns {Promise<T>}
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
  /** @returns {Promise<ConfigResponse>} */
  config: () => call('/api/config'),
  /**
   * @param {string} profileText the editor's text; the server parses it and reports syntax errors
   * @param {AbortSignal} [signal]
   * @returns {Promise<ValidateResponse>}
   */
  validate: (profileText, signal) =>
    call('/api/validate', {
      body: /** @satisfies {import('../src/server/contract.ts').ValidateRequest} */ ({
        profile: profileText,
      }),
      signal,
    }),
  /**
   * @param {ReplayRequest} request
   * @param {AbortSignal} [signal]
   * @returns {Promise<ReplayResponse>}
   */
  replay: (request, signal) => call('/api/replay', { body: request, signal }),
  /**
   * The turn's detail, with one page of its history (see history-list.js).
   * @param {number} index
   * @param {TurnQuery & { historyLimit: number }} page
   * @param {AbortSignal} [signal]
   * @returns {Promise<TurnPageResponse>}
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
   * @returns {Promise<AskResponse>}
   */
  ask: (question, signal) =>
    call('/api/ask', {
      body: /** @satisfies {import('../src/server/contract.ts').AskRequest} */ ({ question }),
      signal,
    }),
  /**
   * @param {string} message
   * @returns {Promise<ChatResponse>}
   */
  chat: (message) =>
    call('/api/chat', {
      body: /** @satisfies {import('../src/server/contract.ts').ChatRequest} */ ({ message }),
    }),
  /**
   * The facts of the last replay's user, as stored now.
   * @returns {Promise<UserFactsResponse>}
   */
  userFacts: () => call('/api/user/facts'),
  /**
   * Forgets the last replay's user: every session, knowledge chunk and fact.
   * @param {string} user
   * @returns {Promise<ForgetUserResponse>}
   */
  forgetUser: (user) =>
    call('/api/user/forget', {
      body: /** @satisfies {import('../src/server/contract.ts').ForgetUserRequest} */ ({ user }),
    }),
};
