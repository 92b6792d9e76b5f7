/**
 * The tokens-per-turn chart: history tokens vs prompt tokens as two polylines, one marker per
 * compaction / erasure, and a cursor on the selected turn. Long replays are downsampled to a
 * min/max pair per pixel column, so 10,000 turns draw as fast as 100.
 */

const NS = 'http://www.w3.org/2000/svg';
const HEIGHT = 240;
const COMPACT = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });
const PAD = { left: 52, right: 12, top: 26, bottom: 24 };

/** @typedef {import('../src/replay/replay-views.ts').TurnSnapshot} Turn */

/**
 * @param {string} tag
 * @param {Record<string, string | number>} attrs
 * @param {string} [text]
 */
function svgEl(tag, attrs, text) {
  const node = document.createElementNS(NS, tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * Points of one series: every turn when there is room, otherwise the min and the max of each
 * pixel column, in turn order.
 * @param {readonly Turn[]} turns
 * @param {(t: Turn) => number} value
 * @param {(i: number) => number} x
 * @param {(v: number) => number} y
 * @param {number} columns
 */
export function seriesPoints(turns, value, x, y, columns) {
  const n = turns.length;
  /** @type {string[]} */
  const points = [];
  const push = (/** @type {number} */ i) =>
    points.push(`${x(i).toFixed(1)},${y(value(/** @type {Turn} */ (turns[i]))).toFixed(1)}`);
  if (n <= columns * 2) {
    for (let i = 0; i < n; i++) push(i);
    return points.join(' ');
  }
  for (let c = 0; c < columns; c++) {
    const from = Math.floor((c * n) / columns);
    const to = Math.max(from + 1, Math.floor(((c + 1) * n) / columns));
    let lo = from;
    let hi = from;
    for (let i = from + 1; i < to; i++) {
      const v = value(/** @type {Turn} */ (turns[i]));
      if (v < value(/** @type {Turn} */ (turns[lo]))) lo = i;
      if (v > value(/** @type {Turn} */ (turns[hi]))) hi = i;
    }
    if (lo === hi) push(lo);
    else if (lo < hi) {
      push(lo);
      push(hi);
    } else {
      push(hi);
      push(lo);
    }
  }
  return points.join(' ');
}

/** @param {number} max */
function niceMax(max) {
  if (max <= 0) return 1;
  const step = 10 ** Math.floor(Math.log10(max));
  return Math.ceil(max / step) * step;
}

/**
 * @param {SVGSVGElement} svg
 * @param {(index: number) => void} onSelect
 */
export function createChart(svg, onSelect) {
  /** @type {readonly Turn[]} */
  let turns = [];
  let width = 800;
  let selected = 0;
  /** @type {SVGLineElement | null} */
  let cursor = null;

  const xOf = (/** @type {number} */ i) => {
    const plot = width - PAD.left - PAD.right;
    return PAD.left + (turns.length <= 1 ? plot / 2 : (i / (turns.length - 1)) * plot);
  };

  function render() {
    width = Math.max(320, Math.round(svg.clientWidth || svg.parentElement?.clientWidth || 800));
    svg.setAttribute('viewBox', `0 0 ${width} ${HEIGHT}`);
    svg.setAttribute('height', String(HEIGHT));
    svg.replaceChildren();
    cursor = null;
    if (turns.length === 0) {
      svg.append(svgEl('text', { x: width / 2, y: HEIGHT / 2, class: 'empty' }, 'No replay yet'));
      return;
    }
    let max = 0;
    for (const t of turns) max = Math.max(max, t.historyTokens, t.promptTokens);
    const top = niceMax(max);
    const plotH = HEIGHT - PAD.top - PAD.bottom;
    const y = (/** @type {number} */ v) => PAD.top + plotH - (v / top) * plotH;
    const frag = document.createDocumentFragment();
    for (const f of [0, 0.5, 1]) {
      frag.append(
        svgEl('line', {
          class: 'grid',
          x1: PAD.left,
          x2: width - PAD.right,
          y1: y(top * f),
          y2: y(top * f),
        }),
        svgEl(
          'text',
          { class: 'axis', x: PAD.left - 6, y: y(top * f) + 4 },
          COMPACT.format(top * f),
        ),
      );
    }
    frag.append(
      svgEl('text', { class: 'axis start', x: PAD.left, y: HEIGHT - 6 }, 'turn 1'),
      svgEl(
        'text',
        { class: 'axis end', x: width - PAD.right, y: HEIGHT - 6 },
        `turn ${turns.length}`,
      ),
    );
    const columns = Math.max(1, Math.floor(width - PAD.left - PAD.right));
    frag.append(
      svgEl('polyline', {
        class: 'line-history',
        points: seriesPoints(turns, (t) => t.historyTokens, xOf, y, columns),
      }),
      svgEl('polyline', {
        class: 'line-prompt',
        points: seriesPoints(turns, (t) => t.promptTokens, xOf, y, columns),
      }),
    );
    for (const t of turns) {
      for (const e of t.events) frag.append(marker(t, e));
    }
    cursor = /** @type {SVGLineElement} */ (
      svgEl('line', { class: 'cursor', y1: PAD.top - 22, y2: HEIGHT - PAD.bottom })
    );
    frag.append(cursor);
    svg.append(frag);
    placeCursor();
  }

  /**
   * @param {Turn} t
   * @param {Turn['events'][number]} e
   */
  function marker(t, e) {
    const x = xOf(t.index);
    const compaction = e.kind === 'compaction';
    const node = compaction
      ? svgEl('circle', { class: 'marker-compaction', cx: x, cy: PAD.top - 15, r: 4 })
      : svgEl('rect', { class: 'marker-erasure', x: x - 3.5, y: PAD.top - 9, width: 7, height: 7 });
    node.setAttribute('data-turn', String(t.index));
    const what = compaction
      ? `compaction: ${e.count} messages summarized${e.summaryId ? ` (${e.summaryId})` : ''}`
      : `erasure: ${e.count} messages erased`;
    node.append(svgEl('title', {}, `Turn ${t.index + 1}: ${what}`));
    return node;
  }

  function placeCursor() {
    if (!cursor || turns.length === 0) return;
    const x = xOf(Math.min(selected, turns.length - 1));
    cursor.setAttribute('x1', x.toFixed(1));
    cursor.setAttribute('x2', x.toFixed(1));
  }

  svg.addEventListener('click', (event) => {
    if (turns.length === 0) return;
    const rect = svg.getBoundingClientRect();
    const px = ((event.clientX - rect.left) / rect.width) * width;
    const plot = width - PAD.left - PAD.right;
    const ratio = Math.min(1, Math.max(0, (px - PAD.left) / plot));
    onSelect(Math.round(ratio * (turns.length - 1)));
  });

  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let resizeTimer;
  window.addEventListener('resize', () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => {
      if (Math.round(svg.clientWidth) !== width) render();
    }, 150);
  });

  return {
    /** @param {readonly Turn[]} next */
    setTurns(next) {
      turns = next;
      render();
    },
    /** @param {number} index */
    select(index) {
      selected = index;
      placeCursor();
    },
  };
}
