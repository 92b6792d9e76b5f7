/**
 * User memory: after a replay with a user, the facts the memory keeps about that user (read from
 * the store after every replay, question and chat turn), the label that says which of the user's
 * sessions a knowledge hit came from, and "Forget this user" (every session, knowledge chunk and
 * fact of the user; the page then needs a replay to have a memory again).
 */
import { api } from './api.js';
import { byId, el, formatNumber, formatTime } from './dom.js';

/**
 * @typedef {import('../src/server/contract.ts').ForgetUserResponse} ForgetUserResponse
 * @typedef {import('../src/server/contract.ts').ReplayResponse} ReplayResponse
 * @typedef {import('../src/replay/replay-views.ts').KnowledgeHitView} KnowledgeHitView
 * @typedef {import('../src/replay/replay-views.ts').UserFactView} UserFactView
 * @typedef {import('../src/replay/replay-views.ts').UserReplayView} UserReplayView
 */

const NO_USER =
  'No user: type a user id above and replay, and each session is stored as a session of that user.';

/** @param {number} ms */
const day = (ms) => formatTime(ms).slice(0, 10);

/**
 * @param {{ onForgotten: (answer: ForgetUserResponse) => void }} hooks `onForgotten`: the user's
 *   memory is gone (questions and the chat wait for a new replay)
 */
export function setupUserPanel(hooks) {
  const status = byId('user-status');
  const list = byId('user-facts');
  const count = byId('user-facts-count');
  const forget = /** @type {HTMLButtonElement} */ (byId('user-forget'));
  /** The user of the last replay, if it had one. @type {UserReplayView | undefined} */
  let user;
  let forgotten = false;
  /** Bumped by every replay, so a slow answer about an older one is dropped. */
  let generation = 0;

  /** @param {'idle' | 'running' | 'done' | 'error'} kind @param {string} text */
  const setStatus = (kind, text) => {
    status.dataset.state = kind;
    status.textContent = text;
  };

  /** `session 2 (Wednesday 11 …)` for a mem session of the user, else its id. @param {string} id */
  const sessionName = (id) => {
    if (id === user?.chatSessionId) return 'this chat';
    const i = user?.sessions.findIndex((s) => s.sessionId === id) ?? -1;
    return i < 0 ? id : `session ${i + 1}`;
  };

  /** @param {UserFactView[]} facts */
  const renderFacts = (facts) => {
    count.textContent = user === undefined ? '' : `${formatNumber(facts.length)} facts`;
    list.replaceChildren(
      ...facts.map((f) =>
        el('li', { class: 'user-fact', 'data-id': f.id, 'data-about': f.about }, [
          el('div', { class: 'meta' }, [
            f.about ? el('span', { class: 'kind', text: f.about }) : null,
            el('span', {
              class: 'fact-source',
              text: `${f.sessionId ? `learnt in ${sessionName(f.sessionId)}` : 'set through the API'}, ${day(f.updatedAt)}`,
              title:
                f.sourceMessageIds.length > 0 ? `from ${f.sourceMessageIds.join(', ')}` : undefined,
            }),
          ]),
          el('div', { class: 'text', text: f.text }),
        ]),
      ),
    );
  };

  /** Reads the user's facts again (after a replay, a question or a chat turn). */
  async function refresh() {
    if (user === undefined || forgotten) return;
    const asked = generation;
    try {
      const answer = await api.userFacts();
      if (asked !== generation) return;
      renderFacts(answer.facts);
      setStatus(
        'done',
        answer.facts.length === 0
          ? `User ${answer.user}: ${formatNumber(answer.sessions.length)} sessions stored, no facts learnt yet.`
          : `User ${answer.user}: ${formatNumber(answer.sessions.length)} sessions stored; what the memory knows:`,
      );
    } catch (error) {
      if (asked === generation)
        setStatus('error', `error: ${/** @type {Error} */ (error).message}`);
    }
  }

  forget.addEventListener('click', async () => {
    if (user === undefined || forgotten) return;
    const asked = generation;
    forget.disabled = true;
    setStatus('running', `Forgetting ${user.id}…`);
    try {
      const answer = await api.forgetUser(user.id);
      if (asked !== generation) return;
      forgotten = true;
      renderFacts([]);
      const { sessions, messages, facts, chunks } = answer.removed;
      setStatus(
        'done',
        `Forgot ${answer.user}: removed ${formatNumber(sessions)} sessions, ${formatNumber(messages)} messages, ${formatNumber(facts)} facts, ${formatNumber(chunks)} knowledge chunks. Replay to build the memory again.`,
      );
      hooks.onForgotten(answer);
    } catch (error) {
      if (asked !== generation) return;
      forget.disabled = false;
      setStatus('error', `error: ${/** @type {Error} */ (error).message}`);
    }
  });

  return {
    /** A replay is starting: what the panel shows belongs to the last one. */
    replaying() {
      generation++;
      forget.disabled = true;
      if (user !== undefined) setStatus('running', 'Replaying…');
    },
    /**
     * A replay answered, with or without a user: its user labels hits at once; settles when the
     * facts are shown. @param {ReplayResponse} result
     */
    async replayed(result) {
      generation++;
      user = result.user;
      forgotten = false;
      renderFacts([]);
      forget.disabled = user === undefined;
      if (user === undefined) {
        setStatus('idle', NO_USER);
        return;
      }
      setStatus('running', `Reading the facts of ${user.id}…`);
      await refresh();
    },
    /** The replay failed: there is no user memory to show. */
    failed() {
      generation++;
      user = undefined;
      renderFacts([]);
      forget.disabled = true;
      setStatus('idle', NO_USER);
    },
    refresh,
    /**
     * Where a knowledge hit came from, for its label: `this session` or `from session 2`, and the
     * day of what it holds. @param {KnowledgeHitView} hit
     * @returns {{ text: string, title: string, current: boolean }}
     */
    hitSource(hit) {
      const other = user?.sessions.find((s) => s.sessionId === hit.sessionId);
      const text = hit.currentSession
        ? `this session, ${day(hit.at)}`
        : `from ${sessionName(hit.sessionId)}, ${day(hit.at)}`;
      return { text, title: other?.title ?? hit.sessionId, current: hit.currentSession };
    },
  };
}

/** @typedef {ReturnType<typeof setupUserPanel>} UserPanel */
