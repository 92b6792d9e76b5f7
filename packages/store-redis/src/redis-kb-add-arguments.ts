import { analyzeText, type KnowledgeChunk, searchableText } from '@mem/core/backend';

/** One chunk's part of the add script's arguments (see `KB_ADD`). */
export function addArguments(
  chunk: KnowledgeChunk,
  vector: Buffer | '',
): (string | number | Buffer)[] {
  const counts = new Map<string, number>();
  const terms = analyzeText(searchableText(chunk));
  for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
  const { metadata } = chunk;
  const meta = encodeMeta([
    JSON.stringify(chunk.id),
    metadata.summaryId === undefined ? '' : JSON.stringify(metadata.summaryId),
    ...metadata.messageIds.map((id) => JSON.stringify(id)),
  ]);
  const args = [JSON.stringify(chunk.id), JSON.stringify(chunk), meta, vector, terms.length];
  args.push(counts.size);
  for (const [term, tf] of counts) args.push(term, tf);
  return args;
}

/** Strings as `byteLength:text...`, which the delete script splits without cjson. */
function encodeMeta(fields: readonly string[]): string {
  return fields.map((f) => `${Buffer.byteLength(f, 'utf8')}:${f}`).join('');
}
