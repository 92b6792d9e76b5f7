/**
 * Replay control: one replay at a time. Starting one cancels the one in flight (its request is
 * aborted, so the server drops or stops it, and its answer is ignored); the status line says
 * where it is: running, done (turns and time, the server's numbers), or the error.
 */
import { api } from './api.js';
import { formatNumber } from './dom.js';

/**
 * @typedef {import('../src/server/contract.ts').ReplayRequest} ReplayRequest
 * @typedef {import('../src/server/contract.ts').ReplayResponse} ReplayResponse
 * @typedef {'running' | 'done' | 'error'} ReplayStatus
 */

/**
 * @param {{
 *   status: HTMLElement,
 *   onStart: () => void,
 *   onReplayed: (result: ReplayResponse, signal: AbortSignal) => Promise<void>,
 *   onFailed: (error: Error) => void,
 * }} parts `status` is the status line; `onReplayed` shows the answer (`signal` aborts when a
 *   newer replay starts); `onFailed` gets an ApiError or a network error
 */
export function createReplayControl({ status, onStart, onReplayed, onFailed }) {
  /** @type {AbortController | undefined} */
  let running;

  /** @param {ReplayStatus} kind @param {string} text */
  function setStatus(kind, text) {
    status.dataset.state = kind;
    status.textContent = text;
  }

  function cancel() {
    running?.abort();
    running = undefined;
  }

  /**
   * Replays `request`, cancelling the replay in flight. Settles once this replay is shown,
   * has failed, or was overtaken.
   * @param {ReplayRequest} request
   */
  async function start(request) {
    cancel();
    const controller = new AbortController();
    running = controller;
    setStatus('running', 'Replaying…');
    onStart();
    try {
      const result = await api.replay(request, controller.signal);
      if (controller.signal.aborted) return;
      const { turns, totalMs } = result.stats;
      setStatus(
        'done',
        `done · ${formatNumber(turns)} turns in ${formatNumber(Math.round(totalMs))} ms`,
      );
      await onReplayed(result, controller.signal);
    } catch (error) {
      if (controller.signal.aborted) return;
      const e = /** @type {Error} */ (error);
      setStatus('error', `error: ${e.message}`);
      onFailed(e);
    } finally {
      if (running === controller) running = undefined;
    }
  }

  return { start, cancel, setStatus };
}
