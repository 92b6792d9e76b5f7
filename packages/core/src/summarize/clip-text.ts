const NEEDS_FLATTENING = /\s\s|[\t\n\r\f\v\u00a0\u2028\u2029]/;

/**
 * `text` on one line (whitespace collapsed), cut at a word boundary to at most `max` characters
 * plus `ellipsis` when it had to be cut. Reads only the start of a long text.
 */
export function clip(text: string, max: number, ellipsis = '…'): string {
  const window = max * 4 + 16;
  const head = text.length > window ? text.slice(0, window) : text;
  const flat = NEEDS_FLATTENING.test(head) ? head.replace(/\s+/g, ' ').trim() : head.trim();
  if (flat.length <= max && head === text) return flat;
  const cut = flat.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space >= max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.]+$/, '')}${ellipsis}`;
}
