import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { median, printTable } from '@mem/bench-kit';

/**
 * Cold start of the built @mem/core: in fresh `node` processes, alternating with the built `ai`
 * package (and with a baseline build of @mem/core, when given), the time of `await import()`
 * and the RSS it adds; then the first `countText` (o200k_base) and the RSS after it. And the
 * size of a browser bundle of `createMemoryEngine`: the initial chunk vs the encodings' chunks.
 */

const here = fileURLToPath(new URL('.', import.meta.url));
const child = join(here, 'cold-start-child.mjs');
const requireHere = createRequire(import.meta.url);
export const BUILT_CORE = resolve(here, '../dist/index.mjs');

interface ChildResult {
  importMs: number;
  importCpuMs: number;
  importRssMB: number;
  firstCountMs?: number;
  countRssMB?: number;
  tokenizerData?: string[];
}

function runChild(mode: 'import' | 'count' | 'trace', specifier: string): ChildResult {
  const stdout = execFileSync(process.execPath, [child, mode, specifier], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as ChildResult;
}

export interface ImportSide {
  name: string;
  importMs: number;
  importCpuMs: number;
  importRssMB: number;
  firstCountMs?: number;
  countRssMB?: number;
}

export interface BundleSizes {
  totalBytes: number;
  initialBytes: number;
  o200kChunkBytes: number;
  cl100kChunkBytes: number;
  singleEncodingBytes: number;
  chunks: number;
}

export interface ColdStartResult {
  rounds: number;
  sides: ImportSide[];
  /** Median over rounds of (this round's @mem/core import) / (this round's ai import). */
  importTimeRatioVsAi: number;
  importCpuRatioVsAi: number;
  importRssRatioVsAi: number;
  tokenizerDataAfterO200kCount: string[];
  bundles: Record<string, BundleSizes>;
}

/** The part of rolldown's API used here (rolldown is tsdown's, not a dependency of this package). */
interface OutputChunk {
  type: 'chunk';
  fileName: string;
  code: string;
  isEntry: boolean;
  imports: string[];
  moduleIds: string[];
}
type Rolldown = (options: {
  input: string;
  platform: 'browser';
  logLevel: 'silent';
  resolve: { alias: Record<string, string> };
}) => Promise<{
  generate(options: {
    format: 'esm';
    minify: boolean;
  }): Promise<{ output: (OutputChunk | { type: 'asset' })[] }>;
  close(): Promise<void>;
}>;

/** Bundles a one-line `createMemoryEngine` app with rolldown (tsdown's), minified, for a browser. */
async function bundleSizes(distIndex: string): Promise<BundleSizes> {
  const fromTsdown = createRequire(requireHere.resolve('tsdown/package.json'));
  const { rolldown } = (await import(pathToFileURL(fromTsdown.resolve('rolldown')).href)) as {
    rolldown: Rolldown;
  };
  const dir = mkdtempSync(join(tmpdir(), 'mem-cold-bundle-'));
  try {
    const entry = join(dir, 'app.js');
    writeFileSync(
      entry,
      "import { createMemoryEngine } from '@mem/core';\nexport const engine = createMemoryEngine({ profile: {} });\n",
    );
    const build = await rolldown({
      input: entry,
      platform: 'browser',
      logLevel: 'silent',
      resolve: { alias: { '@mem/core': distIndex } },
    });
    const { output } = await build.generate({ format: 'esm', minify: true });
    await build.close();
    const chunks = output.filter((o): o is OutputChunk => o.type === 'chunk');
    const byName = new Map(chunks.map((c) => [c.fileName, c]));
    const bytes = (name: string) => Buffer.byteLength(byName.get(name)!.code);
    const closure = (roots: readonly string[]): Set<string> => {
      const seen = new Set<string>();
      const visit = (name: string) => {
        if (seen.has(name)) return;
        seen.add(name);
        for (const next of byName.get(name)!.imports) visit(next);
      };
      for (const root of roots) visit(root);
      return seen;
    };
    const initial = closure(chunks.filter((c) => c.isEntry).map((c) => c.fileName));
    // What a counter of one encoding fetches: its encoding chunk, the shared pre-tokenizer
    // constants, and their static imports that the initial chunk does not already hold.
    const lazyFor = (encoding: string) => {
      const roots = chunks
        .filter(
          (c) =>
            !initial.has(c.fileName) &&
            c.moduleIds.some(
              (id) =>
                id.includes(`gpt-tokenizer/esm/encoding/${encoding}.js`) ||
                id.includes('gpt-tokenizer/esm/encodingParams/constants.js'),
            ),
        )
        .map((c) => c.fileName);
      return [...closure(roots)].filter((n) => !initial.has(n));
    };
    const sum = (names: Iterable<string>) => [...names].reduce((s, n) => s + bytes(n), 0);
    const initialBytes = sum(initial);
    const o200k = sum(lazyFor('o200k_base'));
    return {
      totalBytes: sum(byName.keys()),
      initialBytes,
      o200kChunkBytes: o200k,
      cl100kChunkBytes: sum(lazyFor('cl100k_base')),
      singleEncodingBytes: initialBytes + o200k,
      chunks: chunks.length,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(2)} MB`;

/**
 * `before`: the dist directory of a baseline build of @mem/core (e.g. of the previous commit,
 * `git archive HEAD packages/core | tar -x -C /tmp/before` and built there), measured in the same
 * interleaved rounds.
 */
export async function runColdStartBench(options: {
  rounds: number;
  before?: string | undefined;
}): Promise<ColdStartResult> {
  if (!existsSync(BUILT_CORE)) {
    throw new Error(`no build at ${BUILT_CORE}: run \`pnpm --filter @mem/core build\` first`);
  }
  const mem = pathToFileURL(BUILT_CORE).href;
  const before =
    options.before === undefined
      ? undefined
      : pathToFileURL(resolve(options.before, 'index.mjs')).href;
  type Job = { side: string; mode: 'import' | 'count'; specifier: string };
  const jobs: Job[] = [
    { side: '@mem/core', mode: 'import', specifier: mem },
    { side: 'ai', mode: 'import', specifier: 'ai' },
    { side: '@mem/core', mode: 'count', specifier: mem },
  ];
  if (before !== undefined) {
    jobs.push(
      { side: '@mem/core before', mode: 'import', specifier: before },
      { side: '@mem/core before', mode: 'count', specifier: before },
    );
  }
  const samples = new Map<string, ChildResult[]>();
  for (let round = 0; round < options.rounds; round++) {
    // Rotate which process goes first, so no side always runs on a warmer or quieter machine.
    for (let i = 0; i < jobs.length; i++) {
      const job = jobs[(round + i) % jobs.length]!;
      const key = `${job.side}|${job.mode}`;
      const list = samples.get(key) ?? [];
      list.push(runChild(job.mode, job.specifier));
      samples.set(key, list);
    }
  }
  const pick = (key: string, field: keyof ChildResult) =>
    median((samples.get(key) ?? []).map((r) => r[field] as number));
  const sides: ImportSide[] = [...new Set(jobs.map((j) => j.side))].map((name) => {
    const side: ImportSide = {
      name,
      importMs: pick(`${name}|import`, 'importMs'),
      importCpuMs: pick(`${name}|import`, 'importCpuMs'),
      importRssMB: pick(`${name}|import`, 'importRssMB'),
    };
    if (samples.has(`${name}|count`)) {
      side.firstCountMs = pick(`${name}|count`, 'firstCountMs');
      side.countRssMB = pick(`${name}|count`, 'countRssMB');
    }
    return side;
  });
  const memSide = sides.find((s) => s.name === '@mem/core')!;
  const tokenizerData = runChild('trace', mem).tokenizerData ?? [];
  const bundles: Record<string, BundleSizes> = { '@mem/core': await bundleSizes(BUILT_CORE) };
  if (options.before !== undefined) {
    bundles['@mem/core before'] = await bundleSizes(resolve(options.before, 'index.mjs'));
  }

  printTable(
    `Cold start: await import() in fresh node processes, median of ${options.rounds} interleaved rounds`,
    sides.map((s) => ({
      package: s.name,
      'import time': `${s.importMs.toFixed(1)} ms`,
      'import CPU time': `${s.importCpuMs.toFixed(1)} ms`,
      'RSS added by import': `${s.importRssMB.toFixed(1)} MB`,
      'first countText (o200k)':
        s.firstCountMs === undefined ? '-' : `${s.firstCountMs.toFixed(1)} ms`,
      'RSS added after counting':
        s.countRssMB === undefined ? '-' : `${s.countRssMB.toFixed(1)} MB`,
    })),
  );
  printTable(
    'Bundle of `createMemoryEngine({ profile: {} })` (rolldown, minified, browser)',
    Object.entries(bundles).map(([name, b]) => ({
      build: name,
      total: mb(b.totalBytes),
      'initial chunk(s)': mb(b.initialBytes),
      'o200k chunks (lazy)': mb(b.o200kChunkBytes),
      'cl100k chunks (lazy)': mb(b.cl100kChunkBytes),
      'single-encoding (initial + o200k)': mb(b.singleEncodingBytes),
      chunks: b.chunks,
    })),
  );
  // Paired by round (the two processes ran next to each other), then the median: steadier than
  // a ratio of medians when the machine's load drifts during the run.
  const paired = (field: 'importMs' | 'importCpuMs' | 'importRssMB') => {
    const mine = samples.get('@mem/core|import')!;
    const theirs = samples.get('ai|import')!;
    return median(mine.map((m, i) => m[field] / theirs[i]![field]));
  };
  const timeRatio = paired('importMs');
  const cpuRatio = paired('importCpuMs');
  const rssRatio = paired('importRssMB');
  const bundle = bundles['@mem/core']!;
  printTable('Cold start goals (ratios: median of per-round pairs)', [
    { measure: 'import time, @mem/core / ai', value: timeRatio.toFixed(2), target: '<= 1.0' },
    {
      measure: 'import CPU time, @mem/core / ai',
      value: cpuRatio.toFixed(2),
      target: '(reported)',
    },
    {
      measure: 'RSS added by import, @mem/core / ai',
      value: rssRatio.toFixed(2),
      target: '(reported)',
    },
    {
      measure: 'RSS added by importing @mem/core',
      value: `${memSide.importRssMB.toFixed(1)} MB`,
      target: '<= 30 MB',
    },
    {
      measure: 'tokenizer data parsed after counting with o200k only',
      value: tokenizerData.map((f) => f.replace(/.*\/bpeRanks\//, '')).join(', ') || 'none',
      target: 'o200k_base.js only',
    },
    {
      measure: 'single-encoding bundle (initial + o200k chunks)',
      value: mb(bundle.singleEncodingBytes),
      target: '<= 2.15 MB (half of 4.3 MB)',
    },
  ]);
  return {
    rounds: options.rounds,
    sides,
    importTimeRatioVsAi: timeRatio,
    importCpuRatioVsAi: cpuRatio,
    importRssRatioVsAi: rssRatio,
    tokenizerDataAfterO200kCount: tokenizerData,
    bundles,
  };
}
