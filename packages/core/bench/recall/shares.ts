/** Hits over a total, overall and per question type. */
export class Shares {
  private readonly counts = new Map<string, { hit: number; total: number }>();

  add(type: string, hit: boolean): void {
    for (const key of ['all', type]) {
      const c = this.counts.get(key) ?? { hit: 0, total: 0 };
      c.hit += hit ? 1 : 0;
      c.total++;
      this.counts.set(key, c);
    }
  }

  /** Share of hits for `type` ('all': every pair); NaN when there was none. */
  share(type = 'all'): number {
    const c = this.counts.get(type);
    return c === undefined ? Number.NaN : c.hit / c.total;
  }

  toJSON(): Record<string, number> {
    return Object.fromEntries([...this.counts].map(([k, c]) => [k, round(c.hit / c.total)]));
  }
}

export const round = (x: number, digits = 4): number => Number(x.toFixed(digits));

export function fmtShare(x: number): string {
  return Number.isNaN(x) ? '-' : `${(x * 100).toFixed(1)} %`;
}

/** Known types first, in this order; then any other. */
const TYPE_ORDER = ['single', 'multi-hop', 'temporal', 'preference', 'inference'];

export function orderTypes(types: Iterable<string>): string[] {
  const rank = (t: string) => {
    const i = TYPE_ORDER.indexOf(t);
    return i < 0 ? TYPE_ORDER.length : i;
  };
  return [...new Set(types)].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}
