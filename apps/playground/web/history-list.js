/**
 * The stored history, one page at a time: the server sends PAGE messages of the selected turn's
 * history (the latest by default) and the list pages earlier / later on demand, so a
 * 10,000-turn history never puts thousands of nodes in the DOM.
 */
import { collapsibleText, el, formatNumber } from './dom.js';

export const PAGE = 150;

/**
 * @typedef {{ historyOffset?: number, historyAround?: string }} PageRequest
 * @typedef {{ history: any[], historyPage: { offset: number, total: number,
 *   counts: { active: number, archived: number, erased: number } } }} HistoryPageDetail
 */

/**
 * @param {HTMLElement} container
 * @param {HTMLElement} countBadge
 * @param {(request: PageRequest) => Promise<HistoryPageDetail>} loadPage
 */
export function createHistoryList(container, countBadge, loadPage) {
  /** @type {any[]} */
  let items = [];
  let offset = 0;
  let total = 0;

  /** @param {any} m a HistoryItem */
  const row = (m) =>
    el(
      'article',
      { class: 'history-item', 'data-state': m.state, 'data-id': m.id, id: `msg-${m.id}` },
      [
        el('div', { class: 'meta' }, [
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
  };
}
