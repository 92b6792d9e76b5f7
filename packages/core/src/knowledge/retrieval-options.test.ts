import { describe, expect, it } from 'vitest';
import type { ConfigIssue } from '../errors/errors.ts';
import { EMBEDDER_SPECIFICATION_VERSION } from './embedder-spec.ts';
import { checkRetrievalOptions } from './retrieval-options.ts';

const embedder = {
  specificationVersion: EMBEDDER_SPECIFICATION_VERSION,
  id: 'e',
  dimensions: 3,
  maxBatchSize: 2,
  embed: async () => ({ embeddings: [] }),
};
const check = (options: unknown) => {
  const issues: ConfigIssue[] = [];
  const checked = checkRetrievalOptions(options, issues);
  return { checked, paths: issues.map((i) => i.path) };
};

describe('checkRetrievalOptions', () => {
  it('defaults to hybrid with an embedder, lexical without; rrfK 60; no minSimilarity', () => {
    expect(check({ embedder }).checked).toMatchObject({ retrieval: 'hybrid', rrfK: 60 });
    expect(check({}).checked).toStrictEqual({
      embedder: undefined,
      retrieval: 'lexical',
      rrfK: 60,
      minSimilarity: undefined,
    });
    expect(check({ embedder, retrieval: 'semantic', minSimilarity: -1 }).paths).toStrictEqual([]);
    expect(check({ embedder, minSimilarity: 1 }).checked.minSimilarity).toBe(1);
  });

  it('lists every bad option, naming it', () => {
    expect(check({ retrieval: 'semantic' }).paths).toStrictEqual(['embedder']);
    expect(
      check({ embedder, retrieval: 'fuzzy', rrfK: -1, minSimilarity: Number.NaN }).paths,
    ).toStrictEqual(['retrieval', 'rrfK', 'minSimilarity']);
    for (const minSimilarity of [1.01, -1.5, '0.3', null, Number.POSITIVE_INFINITY]) {
      expect(check({ embedder, minSimilarity }).paths).toStrictEqual(['minSimilarity']);
    }
    expect(check({ embedder: { specificationVersion: 'x', dimensions: 0 } }).paths).toStrictEqual([
      'embedder.specificationVersion',
      'embedder.id',
      'embedder.dimensions',
      'embedder.maxBatchSize',
      'embedder.embed',
    ]);
  });
});
