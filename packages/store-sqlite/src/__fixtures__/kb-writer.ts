import { createInterface } from 'node:readline';
import type { KnowledgeChunk, KnowledgeDeleteFilter } from '@mem/core/backend';
import { createSqliteKnowledgeBase } from '../sqlite-knowledge-base.ts';

/*
 * One OS process of the knowledge-base mirror test: writes to the database file at argv[2], one
 * operation per stdin line (`{"add": chunks}` or `{"delete": filter}`, collection argv[3]),
 * answering `done <n>` after each commit; prints `ready` first and exits on stdin's end.
 */
const [path, collection] = process.argv.slice(2) as [string, string];
const kb = createSqliteKnowledgeBase({ path, busyTimeoutMs: 30_000 });
await kb.count(collection);
console.log('ready');
let n = 0;
for await (const line of createInterface({ input: process.stdin })) {
  const op = JSON.parse(line) as { add?: KnowledgeChunk[]; delete?: KnowledgeDeleteFilter };
  if (op.add !== undefined) await kb.add(collection, op.add);
  if (op.delete !== undefined) await kb.delete(collection, op.delete);
  console.log(`done ${++n}`);
}
await kb.close();
