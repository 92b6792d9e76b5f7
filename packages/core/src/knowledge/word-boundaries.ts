import type { TextBoundaries } from './text-boundaries.ts';

/** A word with the whitespace after it (the first also takes any leading whitespace). Units tile the text. */
const UNIT = /\s*\S+\s*/gu;

/**
 * Boundaries between words, for counters that cannot encode: each unit is a word and the
 * whitespace after it, costing `countText(unit)` tokens. A unit costing more than `maxCost`
 * (a long URL, base64) is cut into pieces that fit, between code points.
 */
export function wordBoundaries(
  text: string,
  maxCost: number,
  countText: (text: string) => number,
): TextBoundaries {
  const offsets: number[] = [0];
  const costs: number[] = [0];
  let total = 0;
  const push = (end: number, unitCost: number): void => {
    total += unitCost;
    offsets.push(end);
    costs.push(total);
  };
  const units = [...text.matchAll(UNIT)];
  if (units.length === 0) push(text.length, countText(text));
  for (const unit of units) {
    const end = unit.index + unit[0].length;
    const unitCost = countText(unit[0]);
    if (unitCost <= maxCost) {
      push(end, unitCost);
      continue;
    }
    for (let start = unit.index; start < end; ) {
      const cut = longestFitting(text, start, end, maxCost, countText);
      push(cut, countText(text.slice(start, cut)));
      start = cut;
    }
  }
  return {
    offsets: Int32Array.from(offsets),
    cost: Float64Array.from(costs),
    clean: new Uint8Array(offsets.length).fill(1),
  };
}

/**
 * The largest `cut` in `(start, end]` with `countText(text.slice(start, cut)) <= maxCost`,
 * between code points and at least one code point past `start`. Gallops forward, then bisects,
 * so a huge unit costs O(length · log length) in total, not O(length²).
 */
function longestFitting(
  text: string,
  start: number,
  end: number,
  maxCost: number,
  countText: (text: string) => number,
): number {
  const fits = (cut: number): boolean => countText(text.slice(start, cut)) <= maxCost;
  let good = Math.min(end, start + codePointLength(text, start));
  if (good >= end) return end;
  let bad = end;
  for (let step = Math.max(1, maxCost); ; step *= 2) {
    const probe = alignToCodePoint(text, Math.min(end, good + step));
    if (probe >= end && fits(end)) return end;
    if (probe >= end || !fits(probe)) {
      bad = probe;
      break;
    }
    good = probe;
  }
  for (;;) {
    const mid = alignToCodePoint(text, (good + bad) >> 1);
    if (mid <= good) return good;
    if (fits(mid)) good = mid;
    else bad = mid;
  }
}

function codePointLength(text: string, at: number): number {
  const code = text.charCodeAt(at);
  return code >= 0xd800 && code <= 0xdbff && isLowSurrogate(text.charCodeAt(at + 1)) ? 2 : 1;
}

/** `at`, moved back one unit when it falls between the two halves of a surrogate pair. */
function alignToCodePoint(text: string, at: number): number {
  const before = text.charCodeAt(at - 1);
  const splits = before >= 0xd800 && before <= 0xdbff && isLowSurrogate(text.charCodeAt(at));
  return splits ? at - 1 : at;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
