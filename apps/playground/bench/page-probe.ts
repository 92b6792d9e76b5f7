/**
 * What the benchmark records inside the page, installed before the page's own scripts run:
 * long tasks, animation frames, input delays and the DOM changes of the result panels.
 *
 * The scripts are plain JavaScript text: a function passed to the page would be serialized
 * after tsx's transform, which may add helpers (`__name`) that do not exist in the page.
 */

export interface ProbeData {
  longTasks: { start: number; duration: number }[];
  /** requestAnimationFrame timestamps. */
  frames: number[];
  /** pointerdown events: when handled, and how long after the event was created. */
  inputs: { at: number; delay: number }[];
  /** After each DOM change of a panel: when the next frame after it had run (≈ painted). */
  paints: { panel: string; at: number }[];
  /** The API requests' resource timings. */
  resources: { path: string; start: number; responseEnd: number }[];
}

export const INSTALL_PROBE = `(() => {
  const probe = { longTasks: [], frames: [], inputs: [], paints: [], resources: [] };
  window.__memProbe = probe;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) probe.longTasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
  const frame = (t) => {
    probe.frames.push(t);
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  document.addEventListener('pointerdown', (event) => {
    const now = performance.now();
    probe.inputs.push({ at: now, delay: now - event.timeStamp });
  }, { capture: true });
  const afterPaint = (panel) =>
    requestAnimationFrame(() => setTimeout(() => probe.paints.push({ panel, at: performance.now() })));
  document.addEventListener('DOMContentLoaded', () => {
    for (const panel of ['chart', 'history', 'summaries', 'context']) {
      const node = document.getElementById(panel);
      if (node) new MutationObserver(() => afterPaint(panel)).observe(node, { childList: true, subtree: true });
    }
  });
})()`;

export const READ_PROBE = `(() => {
  const probe = window.__memProbe;
  probe.resources = performance
    .getEntriesByType('resource')
    .filter((e) => new URL(e.name).pathname.startsWith('/api/'))
    .map((e) => ({ path: new URL(e.name).pathname, start: e.startTime, responseEnd: e.responseEnd }));
  return probe;
})()`;
