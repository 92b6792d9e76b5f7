/**
 * Renders the panels of one selected turn: what the LLM sees, the summaries, the knowledge-base
 * hits, and the stats bar. Lists are capped so a long replay never floods the page.
 */
import { byId, collapsibleText, el, formatNumber, formatTime } from './dom.js';

const LIST_CAP = 50;

/**
 * @typedef {import('../src/replay/replay-views.ts').ContextItem} ContextItem
 * @typedef {import('../src/replay/replay-views.ts').AskContextItem} AskContextItem
 * @typedef {import('../src/replay/replay-views.ts').KnowledgeHitView} KnowledgeHitView
 * @typedef {import('../src/replay/replay-views.ts').ReplayStats} ReplayStats
 * @typedef {import('../src/replay/replay-views.ts').SummaryView} SummaryView
 * @typedef {(hit: KnowledgeHitView) => { text: string, title: string, current: boolean }} HitSource
 *   where a hit came from, as its label says (user-panel.js)
 */

/**
 * @template T
 * @param {HTMLElement} list
 * @param {readonly T[]} items
 * @param {(item: T) => HTMLElement} render
 * @param {string} tag
 */
export function cappedList(list, items, render, tag) {
  list.replaceChildren();
  let shown = 0;
  const more = el(tag, { class: 'list-more' });
  const showMore = () => {
    const frag = document.createDocumentFragment();
    for (const item of items.slice(shown, shown + LIST_CAP)) frag.append(render(item));
    shown = Math.min(items.length, shown + LIST_CAP);
    more.before(frag);
    more.replaceChildren();
    if (shown < items.length) {
      const button = el('button', {
        type: 'button',
        text: `Show ${Math.min(LIST_CAP, items.length - shown)} more (${formatNumber(items.length - shown)} hidden)`,
      });
      button.addEventListener('click', showMore);
      more.append(button);
    } else more.remove();
  };
  list.append(more);
  showMore();
}

/**
 * @param {ContextItem[]} context the turn's context items
 * @param {number} promptTokens what the server counted for the whole prompt (`turn.promptTokens`,
 *   reply priming included), the number the chart and the stats use too
 */
export function renderContext(context, promptTokens) {
  byId('context-tokens').textContent = `${formatNumber(promptTokens)} tokens`;
  cappedList(byId('context'), context, contextItem, 'li');
}

/** @param {ContextItem | AskContextItem} item */
export function contextItem(item) {
  return el('li', { class: 'context-item', 'data-kind': item.kind, 'data-id': item.id }, [
    el('div', { class: 'meta' }, [
      el('span', { class: `kind kind-${item.kind}`, text: item.kind }),
      el('span', { class: 'role', text: item.role }),
      el('span', { class: 'tokens', text: `${formatNumber(item.tokens)} tok` }),
    ]),
    collapsibleText(item.text),
  ]);
}

/**
 * @param {SummaryView[]} summaries
 * @param {(ids: string[]) => void} showOriginals scrolls the history to these message ids
 */
export function renderSummaries(summaries, showOriginals) {
  byId('summaries-count').textContent = String(summaries.length);
  const list = byId('summaries');
  if (summaries.length === 0) {
    list.replaceChildren(el('p', { class: 'muted', text: 'No summaries at this turn.' }));
    return;
  }
  cappedList(list, summaries, (s) => summaryItem(s, showOriginals), 'div');
}

/**
 * @param {SummaryView} s
 * @param {(ids: string[]) => void} showOriginals
 */
function summaryItem(s, showOriginals) {
  const ids = s.originalMessageIds;
  /** @param {string} label @param {string[]} targets */
  const link = (label, targets) => {
    const a = el('a', {
      class: 'original-link',
      href: `#msg-${targets[0]}`,
      'data-target': targets[0],
      text: label,
    });
    a.addEventListener('click', (event) => {
      event.preventDefault();
      showOriginals(targets);
    });
    return a;
  };
  const links =
    ids.length <= 12
      ? ids.map((id) => link(id, [id]))
      : [link(`${ids[0]} … ${ids.at(-1)} (${ids.length} messages)`, ids)];
  return el('article', { class: 'summary-item', 'data-id': s.id }, [
    el('div', { class: 'meta' }, [
      el('span', {
        class: 'ratio',
        title: 'summary tokens / original tokens',
        text: s.ratio.toFixed(2),
      }),
      el('span', {
        class: 'tokens',
        text: `${formatNumber(s.originalTokens)} → ${formatNumber(s.summaryTokens)} tok`,
      }),
      el('span', { class: 'range', text: `${formatTime(s.start)} – ${formatTime(s.end)}` }),
      el('span', {
        class: 'muted',
        text: `turn ${s.turn + 1}${s.source === 'fallback' ? ' · fallback' : ''}`,
      }),
    ]),
    collapsibleText(s.text, 400),
    el('div', { class: 'originals' }, [
      el('span', { class: 'muted', text: 'replaced: ' }),
      ...links,
    ]),
  ]);
}

/**
 * The label of a knowledge hit that says which session it came from (`data-current`: whether
 * that is the session the context is for).
 * @param {KnowledgeHitView} hit
 * @param {HitSource} source
 */
export function hitSourceLabel(hit, source) {
  const { text, title, current } = source(hit);
  return el('span', { class: 'hit-session', 'data-current': String(current), title, text });
}

/**
 * @param {KnowledgeHitView[]} hits
 * @param {HitSource} source
 */
export function renderKbHits(hits, source) {
  const list = byId('kb-hits');
  if (hits.length === 0) {
    list.replaceChildren(
      el('li', { class: 'muted', text: 'No knowledge-base hits for this question.' }),
    );
    return;
  }
  cappedList(
    list,
    hits,
    (h) =>
      el('li', { class: 'kb-hit', 'data-id': h.chunkId }, [
        el('div', { class: 'meta' }, [
          el('span', { class: 'rank', text: `#${h.rank}` }),
          el('span', { class: 'score', text: Number(h.score).toFixed(3) }),
          el('span', { class: `kind kind-${h.kind}`, text: h.kind }),
          hitSourceLabel(h, source),
        ]),
        collapsibleText(h.text),
      ]),
    'li',
  );
}

/**
 * The thread's stats as the server aggregated them (contract.ts): shown, never recomputed.
 * @param {ReplayStats | null} stats null before the first replay
 */
export function renderStats(stats) {
  const dl = byId('stats');
  if (!stats) {
    dl.replaceChildren();
    return;
  }
  const saved = 1 - stats.sentShare;
  /** @type {[string, string][]} */
  const rows = [
    ['turns', formatNumber(stats.turns)],
    ['tokens stored', formatNumber(stats.tokensStored)],
    [
      'tokens sent',
      `${formatNumber(stats.tokensSent)} (−${(Math.round(saved * 1000) / 10).toFixed(1)}%)`,
    ],
    ['compactions', formatNumber(stats.compactions)],
    ['erasures', formatNumber(stats.erasures)],
    ['ratio', stats.compressionRatio === null ? '—' : stats.compressionRatio.toFixed(2)],
  ];
  dl.replaceChildren(
    ...rows.map(([k, v]) =>
      el('div', { 'data-stat': k.replace(' ', '-') }, [
        el('dt', { text: k }),
        el('dd', { text: v }),
      ]),
    ),
  );
}
