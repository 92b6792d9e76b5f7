/**
 * The stored history, one page at a time: the server sends PAGE messages of the selected turn's
 * history (the latest by default) and the list pages earlier / later on demand, so a
 * 10,000-turn history never puts thousands of nodes in the DOM. Messages a question's context
 * brings back (ask-panel.js) carry a mark, `in window` or `retrieved`, on every page shown.
 */
import { collapsibleText, el, formatNumber } from './dom.js';

export const PAGE = 150;

/** @type {Record<string, string>} */
const MARK_LABELS = { window: 'in window', retrieved: 'retrieved' };

/** @param {string} how `window` or `retrieved` */
function markLabel(how) {
  return el('span', {
    class: `mark mark-${how}`,
    text: MARK_LABELS[how] ?? how,
    title:
      how === 'window'
        ? 'sent as it is in the context for the question'
        : 'quoted by a knowledge-base chunk in the context for the question',
  });
}

/**
 * @typedef {import('../src/replay/replay-views.ts').HistoryItem} HistoryItem
 * @typedef {import('../src/replay/replay-views.ts').PresentMessage} PresentMessage
 * @typedef {Pick<import('../src/server/contract.ts').TurnQuery, 'historyOffset' | 'historyAround'>} PageRequest
 * @typedef {Pick<import('../src/server/contract.ts').TurnPageResponse, 'history' | 'historyPage'>} HistoryPageDetail
 */

/**
 * @param {HTMLElement} container
 * @param {HTMLElement} countBadge
 * @param {(request: PageRequest) => Promise<HistoryPageDetail>} loadPage
 */
export function createHistoryList(container, countBadge, loadPage) {
  /** @type {HistoryItem[]} */
  let items = [];
  let offset = 0;
  let total = 0;
  /** Message id -> how the last question's context brings it back. @type {Map<string, string>} */
  let marks = new Map();

  /** @param {HistoryItem} m */
  const row = (m) => {
    const how = marks.get(m.id);
    return el(
      'article',
      {
        class: 'history-item',
        'data-state': m.state,
        'data-id': m.id,
        'data-mark': how,
        id: `msg-${m.id}`,
      },
      [
        el('div', { class: 'meta' }, [
          how ? markLabel(how) : null,
          el('span', {
            class: `role role-${m.role}`,
            text: m.toolName ? `${m.role} · ${m.toolName}` : m.role,
          }),
          m.isError ? el('span', { class: 'error-flag', text: 'error' }) : null,
          el('span', { class: 'tokens', text: `${formatNumber(m.tokens)} tok` }),
          el('span', {
            class: `state state-${m.state}`,
            text: m.state,
            title: m.summaryId ? `replaced by ${m.summaryId}` : undefined,
          }),
        ]),
        collapsibleText(m.text, 200),
      ],
    );
  };

  /**
   * @param {string} label
   * @param {PageRequest} request
   * @param {'start' | 'end'} keep where to scroll after loading
   */
  const pager = (label, request, keep) => {
    const button = el('button', { type: 'button', class: 'history-more', text: label });
    button.addEventListener('click', async () => {
      button.setAttribute('disabled', '');
      show(await loadPage(request));
      container.scrollTop = keep === 'start' ? container.scrollHeight : 0;
    });
    return button;
  };

  /** @param {HistoryPageDetail} detail */
  function show(detail) {
    items = detail.history;
    ({ offset, total } = detail.historyPage);
    const { counts } = detail.historyPage;
    countBadge.textContent = `${formatNumber(total)} · ${formatNumber(counts.active)} active · ${formatNumber(counts.archived)} archived · ${formatNumber(counts.erased)} erased`;
    const frag = document.createDocumentFragment();
    if (offset > 0) {
      const earlier = Math.max(0, offset - PAGE);
      frag.append(
        pager(`Show earlier (${formatNumber(offset)} hidden)`, { historyOffset: earlier }, 'start'),
      );
    }
    for (const m of items) frag.append(row(m));
    const after = total - offset - items.length;
    if (after > 0) {
      frag.append(
        pager(
          `Show later (${formatNumber(after)} hidden)`,
          { historyOffset: offset + PAGE },
          'end',
        ),
      );
    }
    if (total === 0) frag.append(el('p', { class: 'muted', text: 'Nothing stored yet.' }));
    container.replaceChildren(frag);
  }

  /** @param {Set<string>} wanted */
  function highlight(wanted) {
    /** @type {HTMLElement | undefined} */
    let first;
    for (const node of container.querySelectorAll('.history-item')) {
      const hit = wanted.has(/** @type {HTMLElement} */ (node).dataset.id ?? '');
      node.classList.toggle('highlight', hit);
      if (hit && !first) first = /** @type {HTMLElement} */ (node);
    }
    first?.scrollIntoView({ block: 'center' });
    return first !== undefined;
  }

  /**
   * Sets the marks of the rows shown; returns the row of `target`, if shown.
   * @param {string | undefined} target
   */
  function applyMarks(target) {
    /** @type {HTMLElement | undefined} */
    let found;
    for (const node of /** @type {NodeListOf<HTMLElement>} */ (
      container.querySelectorAll('.history-item')
    )) {
      const id = node.dataset.id ?? '';
      const how = marks.get(id);
      node.querySelector('.mark')?.remove();
      if (how) {
        node.dataset.mark = how;
        node.querySelector('.meta')?.prepend(markLabel(how));
      } else delete node.dataset.mark;
      if (id === target) found = node;
    }
    return found;
  }

  return {
    /** @param {HistoryPageDetail} detail the selected turn's detail (latest page) */
    show(detail) {
      show(detail);
      container.scrollTop = container.scrollHeight;
    },
    /**
     * Loads the page holding these messages if needed, highlights them and scrolls to the first.
     * @param {string[]} ids
     */
    async reveal(ids) {
      const wanted = new Set(ids);
      if (items.some((m) => wanted.has(m.id))) return highlight(wanted);
      if (ids.length === 0) return false;
      show(await loadPage({ historyAround: /** @type {string} */ (ids[0]) }));
      return highlight(wanted);
    },
    /**
     * Marks the messages a question's context brings back, on this page and on pages loaded
     * later, then shows the page of the first retrieved one (else the first one) and scrolls
     * the list (only the list) to it. An empty list clears the marks.
     * @param {PresentMessage[]} present
     */
    async mark(present) {
      marks = new Map(present.map((p) => [p.id, p.how]));
      const target = (present.find((p) => p.how === 'retrieved') ?? present[0])?.id;
      if (target !== undefined && !items.some((m) => m.id === target)) {
        show(await loadPage({ historyAround: target }));
      }
      const node = applyMarks(target);
      if (node === undefined) return false;
      const offset = node.getBoundingClientRect().top - container.getBoundingClientRect().top;
      container.scrollTop += offset - container.clientHeight / 3;
      return true;
    },
  };
}
