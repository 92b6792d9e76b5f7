/**
 * Ask the memory: after a replay, a question shows the context the next LLM call would get for
 * it (system, summary, retrieved knowledge, window, the question; with token counts) and the
 * knowledge-base chunks it retrieved. Nothing is stored. The page marks the history messages it
 * brings back (app.js, history-list.js).
 */
import { api } from './api.js';
import { byId, collapsibleText, el, formatNumber } from './dom.js';
import { cappedList, contextItem, hitSourceLabel } from './views.js';

/**
 * @typedef {import('../src/server/contract.ts').AskResponse} AskResponse
 * @typedef {import('../src/replay/replay-views.ts').AskContextItem} AskContextItem
 * @typedef {import('../src/replay/replay-views.ts').AskHitView} AskHitView
 * @typedef {import('./views.js').HitSource} HitSource
 */

/** @type {AskContextItem['kind'][]} */
const KINDS = ['system', 'facts', 'summary', 'knowledge', 'window', 'question'];

/**
 * @param {{
 *   onAnswer: (answer: AskResponse) => Promise<void>,
 *   showMessages: (ids: string[]) => void,
 *   hitSource: HitSource,
 * }} hooks `onAnswer` marks the history; `showMessages` scrolls it to these messages;
 *   `hitSource` labels a hit with the session it came from
 */
export function setupAsk(hooks) {
  const form = /** @type {HTMLFormElement} */ (byId('ask-form'));
  const input = /** @type {HTMLTextAreaElement} */ (byId('ask-input'));
  const send = /** @type {HTMLButtonElement} */ (byId('ask-send'));
  const status = byId('ask-status');
  const result = byId('ask-result');
  let ready = false;
  /** @type {AbortController | undefined} */
  let asking;

  /** @param {'idle' | 'running' | 'done' | 'error'} kind @param {string} text */
  const setStatus = (kind, text) => {
    status.dataset.state = kind;
    status.textContent = text;
  };

  const sync = () => {
    input.disabled = !ready;
    send.disabled = !ready || asking !== undefined;
  };

  async function submit() {
    const question = input.value.trim();
    if (!ready || asking !== undefined) return;
    if (question === '') {
      setStatus('error', 'Type a question first.');
      return;
    }
    const controller = new AbortController();
    asking = controller;
    sync();
    setStatus('running', 'Asking…');
    try {
      const answer = await api.ask(question, controller.signal);
      if (controller.signal.aborted) return;
      render(answer);
      await hooks.onAnswer(answer);
      const retrieved = answer.present.filter((p) => p.how === 'retrieved');
      setStatus(
        'done',
        `${formatNumber(answer.tokenCount)} tokens · brings back ${formatNumber(answer.present.length - retrieved.length)} messages in the window, ${formatNumber(retrieved.length)} retrieved`,
      );
    } catch (error) {
      if (!controller.signal.aborted)
        setStatus('error', `error: ${/** @type {Error} */ (error).message}`);
    } finally {
      if (asking === controller) asking = undefined;
      sync();
    }
  }

  /** @param {AskResponse} answer */
  function render(answer) {
    /** @type {Map<string, number>} */
    const tokens = new Map();
    for (const item of answer.context)
      tokens.set(item.kind, (tokens.get(item.kind) ?? 0) + item.tokens);
    byId('ask-breakdown').replaceChildren(
      ...KINDS.filter((k) => tokens.has(k)).map((k) =>
        el('span', { class: `part kind-${k}`, 'data-kind': k }, [
          el('span', { class: 'kind', text: k }),
          ` ${formatNumber(tokens.get(k) ?? 0)} tok`,
        ]),
      ),
      el('span', { class: 'total', text: `= ${formatNumber(answer.tokenCount)} tokens sent` }),
      ...(answer.truncated
        ? [el('span', { class: 'error-flag', text: 'question truncated' })]
        : []),
    );
    // The window is one row (its messages are marked in the history), opened on demand; the
    // few other parts (system, summary, knowledge, the question) are shown as they are.
    const windowItems = answer.context.filter((i) => i.kind === 'window');
    /** @type {HTMLElement[]} */
    const rows = [];
    for (const item of answer.context) {
      if (item.kind !== 'window') rows.push(contextItem(item));
      else if (item === windowItems[0]) rows.push(windowGroup(windowItems));
    }
    byId('ask-context').replaceChildren(...rows);
    const hits = byId('ask-hits');
    if (answer.knowledgeHits.length === 0) {
      hits.replaceChildren(el('li', { class: 'muted', text: 'No knowledge retrieved.' }));
    } else {
      // A chunk quotes history messages (archived turns) or is a piece of a summary: link the
      // history messages only.
      const known = new Set(answer.present.map((p) => p.id));
      cappedList(hits, answer.knowledgeHits, (h) => hitItem(h, known), 'li');
    }
    result.hidden = false;
  }

  /** @param {AskContextItem[]} items the window's context items */
  function windowGroup(items) {
    const tokens = items.reduce((sum, item) => sum + item.tokens, 0);
    const inner = el('ol', { class: 'list window-items', hidden: true });
    const toggle = el('button', { type: 'button', class: 'more', text: 'show' });
    toggle.addEventListener('click', () => {
      if (inner.childElementCount === 0) cappedList(inner, items, contextItem, 'li');
      inner.hidden = !inner.hidden;
      toggle.textContent = inner.hidden ? 'show' : 'hide';
    });
    return el('li', { class: 'context-item window-group', 'data-kind': 'window' }, [
      el('div', { class: 'meta' }, [
        el('span', { class: 'kind kind-window', text: 'window' }),
        el('span', {
          class: 'role',
          text: `${formatNumber(items.length)} recent message${items.length === 1 ? '' : 's'}`,
        }),
        el('span', { class: 'tokens', text: `${formatNumber(tokens)} tok` }),
        toggle,
      ]),
      inner,
    ]);
  }

  /** @param {AskHitView} h @param {Set<string>} known ids of history messages */
  function hitItem(h, known) {
    const ids = h.messageIds.filter((id) => known.has(id));
    const link = el('a', {
      class: 'original-link',
      href: ids.length > 0 ? `#msg-${ids[0]}` : undefined,
      text: ids.length === 1 ? `quotes ${ids[0]}` : `quotes ${ids.length} messages`,
    });
    link.addEventListener('click', (event) => {
      event.preventDefault();
      if (ids.length > 0) hooks.showMessages(ids);
    });
    return el('li', { class: 'kb-hit', 'data-id': h.chunkId }, [
      el('div', { class: 'meta' }, [
        el('span', { class: 'rank', text: `#${h.rank}` }),
        el('span', { class: 'score', text: Number(h.score).toFixed(3) }),
        el('span', { class: `kind kind-${h.kind}`, text: h.kind }),
        el('span', { class: 'tokens', text: `${formatNumber(h.tokens)} tok` }),
        hitSourceLabel(h, hooks.hitSource),
        ids.length > 0 ? link : null,
      ]),
      collapsibleText(h.text),
    ]);
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void submit();
  });
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      void submit();
    }
  });
  sync();

  return {
    /**
     * Enables asking once a replay is done; a new replay (or a failed one) clears the answer.
     * @param {boolean} replayed
     * @param {string} [why] shown when not replayed
     */
    setReplayed(replayed, why) {
      ready = replayed;
      asking?.abort();
      asking = undefined;
      result.hidden = true;
      input.placeholder = replayed
        ? 'Ask about the conversation, e.g. "What was the declared value of BW-20418?"'
        : 'Replay first…';
      setStatus(
        'idle',
        replayed ? 'Ask what the memory brings back for a question.' : (why ?? 'Replay first.'),
      );
      sync();
    },
  };
}
