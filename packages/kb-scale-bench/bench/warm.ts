import type { Kind, Searcher } from './backends.ts';
import { type BenchQuery, benchQueries } from './dialogue-chunks.ts';

export const SCOPES = ['session', 'user'] as const;
export type Scope = (typeof SCOPES)[number];

export interface WarmFigure {
  queries: number;
  p50Ms: number;
  p99Ms: number;
  meanHits: number;
  /** Share of queries whose top-10 ids (in order) equal the in-memory knowledge base's. */
  sameAsMemory?: number;
}

const quantile = (sorted: readonly number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

/**
 * Warm searches (topK 10), `queries` per scope spread over every session / user, in `rounds`
 * interleaved rounds: each round runs its slice of the queries on every side, the sides'
 * order rotating per round. Every side has already answered one search.
 */
export async function benchWarm(
  searchers: ReadonlyMap<Kind, Searcher>,
  size: number,
  queries: number,
  rounds: number,
): Promise<Map<Kind, Record<Scope, WarmFigure>>> {
  const kinds = [...searchers.keys()];
  const out = new Map<Kind, Record<Scope, WarmFigure>>();
  const perScope = new Map<Scope, Map<Kind, { ms: number[]; hits: string[][] }>>();
  for (const scope of SCOPES) {
    const list: BenchQuery[] = benchQueries(size, queries, scope, scope === 'session' ? 7 : 13);
    const samples = new Map(kinds.map((k) => [k, { ms: [] as number[], hits: [] as string[][] }]));
    const slice = Math.ceil(list.length / rounds);
    for (let r = 0; r < rounds; r++) {
      const order = kinds.map((_, i) => kinds[(i + r) % kinds.length]!);
      for (const kind of order) {
        const searcher = searchers.get(kind)!;
        const sample = samples.get(kind)!;
        for (const query of list.slice(r * slice, (r + 1) * slice)) {
          const t0 = performance.now();
          const hits = await searcher.search(query);
          sample.ms.push(performance.now() - t0);
          sample.hits.push(hits);
        }
      }
    }
    perScope.set(scope, samples);
  }
  for (const kind of kinds) {
    const figures = {} as Record<Scope, WarmFigure>;
    for (const scope of SCOPES) {
      const samples = perScope.get(scope)!;
      const { ms, hits } = samples.get(kind)!;
      const sorted = [...ms].sort((a, b) => a - b);
      const memory = samples.get('memory')?.hits;
      figures[scope] = {
        queries: ms.length,
        p50Ms: quantile(sorted, 0.5),
        p99Ms: quantile(sorted, 0.99),
        meanHits: hits.reduce((s, h) => s + h.length, 0) / Math.max(1, hits.length),
        ...(memory === undefined || kind === 'memory' || kind === 'fts5'
          ? {}
          : {
              sameAsMemory:
                hits.filter((h, i) => h.join(' ') === memory[i]!.join(' ')).length / hits.length,
            }),
      };
    }
    out.set(kind, figures);
  }
  return out;
}
