import { type Kind, openSearcher } from './backends.ts';
import type { BenchQuery } from './dialogue-chunks.ts';

/**
 * One first search in a fresh process (spawned by fresh.ts): argv = kind, size, SQLite path,
 * Redis URL, query JSON. Every module is loaded before the clock starts; then it opens the
 * knowledge base and runs one search (topK 10). Prints one JSON line: the open + first search
 * in ms, and the RSS it added (`process.memoryUsage().rss` after minus before the open). The
 * in-memory knowledge base has nothing to open: its figure is building it from the chunks.
 */
const [kind, size, sqlitePath, redisUrl, queryJson] = process.argv.slice(2) as [
  Kind,
  string,
  string,
  string,
  string,
];
const query = JSON.parse(queryJson) as BenchQuery;
const rssBefore = process.memoryUsage().rss;
const t0 = performance.now();
const searcher = await openSearcher(kind, Number(size), { sqlitePath, redisUrl });
const hits = await searcher.search(query);
const firstSearchMs = performance.now() - t0;
const rssAdded = process.memoryUsage().rss - rssBefore;
await searcher.close();
console.log(JSON.stringify({ kind, firstSearchMs, rssAdded, hits: hits.length }));
