import { fmtInt, fmtMs, printTable } from '@mem/bench-kit';
import { messageText } from '@mem/core';
import type { KnowledgeBase, KnowledgeChunk } from '@mem/core/backend';
import { createWordVectorEmbedder, generateConversation } from '@mem/core/testing';
import type { BenchRun } from '@mem/store-bench';
import { knowledgeChunk } from '@mem/store-test-suite';
import { createRedisKnowledgeBase } from '../src/index.ts';

/** The latency a search should stay under (issue 25). */
const LIMIT_MS = 20;
/** A size whose median search is past this is the last one measured. */
const STOP_MS = 3 * LIMIT_MS;
const TOP_K = 10;
/** Messages per chunk: a user turn with a tool call, its result and the answer (~1 kB). */
const PER_CHUNK = 4;

interface Mode {
  name: string;
  label: string;
  sizes: number[];
  open: (namespace: string) => KnowledgeBase;
}

interface Row {
  chunks: number;
  medianMs: number;
  p90Ms: number;
}

const quantile = (sorted: readonly number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] as number;

/**
 * (g) Per-scope limits of the Redis knowledge base: one session grown step by step to each
 * size (chunks of ~1 kB of generated dialogue, added 500 a call), and at each size `queries`
 * searches of that session (`topK` 10, each a different user message of the same
 * conversation, none of them added), with the client's caches off (`chunkCacheBytes`,
 * `postingsCacheBytes` and `mirrorBytes` 0) so every search reads its postings and its hits'
 * chunks from Redis. Lexical (BM25), and semantic (cosine over every vector of the session,
 * computed in the client) at 256 and 1,536 dimensions (core's word-vector test embedder, which
 * costs no network). The limit is the largest size measured whose median search is under
 * 20 ms (every smaller size too).
 */
export async function runKbLimits(run: BenchRun, url: string): Promise<void> {
  const queries = run.quick ? 10 : 30;
  const lexicalSizes = run.quick ? [1_000, 5_000] : [1_000, 5_000, 10_000, 20_000, 50_000];
  const vectorSizes = run.quick ? [500, 1_000] : [500, 1_000, 2_000, 5_000, 10_000];
  const open = (namespace: string, dimensions?: number) =>
    createRedisKnowledgeBase({
      url,
      namespace,
      chunkCacheBytes: 0,
      postingsCacheBytes: 0,
      mirrorBytes: 0,
      commandTimeoutMs: 60_000,
      ...(dimensions === undefined
        ? {}
        : {
            embedder: createWordVectorEmbedder({ dimensions, id: `words-${dimensions}` }),
            retrieval: 'semantic' as const,
          }),
    });
  const modes: Mode[] = [
    { name: 'lexical', label: 'lexical (BM25)', sizes: lexicalSizes, open: (ns) => open(ns) },
    {
      name: 'semantic256',
      label: 'semantic, 256 dimensions',
      sizes: vectorSizes,
      open: (ns) => open(ns, 256),
    },
    {
      name: 'semantic1536',
      label: 'semantic, 1,536 dimensions',
      sizes: vectorSizes,
      open: (ns) => open(ns, 1536),
    },
  ];
  const biggest = Math.max(...lexicalSizes, ...vectorSizes);
  const messages = generateConversation({ interactions: biggest + queries, seed: 23 });
  const chunks: KnowledgeChunk[] = [];
  for (let i = 0; i + PER_CHUNK <= messages.length && chunks.length < biggest; i += PER_CHUNK) {
    const part = messages.slice(i, i + PER_CHUNK);
    chunks.push(
      knowledgeChunk(`c${chunks.length}`, part.map((m) => messageText(m)).join('\n'), {
        sessionId: 's',
        kind: 'archive',
        createdAt: chunks.length,
        messageIds: part.map((m) => m.id),
      }),
    );
  }
  const questions = messages
    .slice(-queries * PER_CHUNK)
    .filter((m) => m.role === 'user')
    .map((m) => messageText(m))
    .slice(0, queries);

  const out: Record<string, { limitChunks: number | null; rows: Row[] }> = {};
  for (const mode of modes) {
    const kb = mode.open(`limits${mode.name}${Date.now().toString(36)}`);
    const rows: Row[] = [];
    let added = 0;
    for (const size of mode.sizes) {
      for (; added < size; added += 500) {
        await kb.add('limits', chunks.slice(added, Math.min(size, added + 500)));
      }
      await kb.search('limits', questions[0] as string, { topK: TOP_K, sessionId: 's' });
      const ms: number[] = [];
      for (const question of questions) {
        const started = performance.now();
        await kb.search('limits', question, { topK: TOP_K, sessionId: 's' });
        ms.push(performance.now() - started);
      }
      ms.sort((a, b) => a - b);
      rows.push({ chunks: size, medianMs: quantile(ms, 0.5), p90Ms: quantile(ms, 0.9) });
      if (quantile(ms, 0.5) > STOP_MS) break;
    }
    await kb.delete('limits', { sessionId: 's' });
    await kb.close();
    const under = rows.findIndex((r) => r.medianMs >= LIMIT_MS);
    const limit = under === -1 ? rows.at(-1) : rows[under - 1];
    out[mode.name] = { limitChunks: limit?.chunks ?? null, rows };
    printTable(
      `(g) ${mode.label}: one search of one session (topK ${TOP_K}, ${queries} queries a size, client caches off)`,
      rows.map((r) => ({
        'chunks in the session': fmtInt(r.chunks),
        'median search': fmtMs(r.medianMs),
        'p90 search': fmtMs(r.p90Ms),
        [`median < ${LIMIT_MS} ms`]: r.medianMs < LIMIT_MS ? 'yes' : 'no',
      })),
    );
  }
  run.out.kbLimits = { limitMs: LIMIT_MS, topK: TOP_K, queries, ...out };
}
