import { z } from 'zod';
import { MemValidationError } from '../errors/errors.ts';
import { parseWith as parseStoreInput } from '../store/parse-store-input.ts';
import { assertValidSessionId } from '../store/validate-ids.ts';
import type {
  KnowledgeChunk,
  KnowledgeCountFilter,
  KnowledgeDeleteFilter,
  KnowledgeSearchOptions,
} from './knowledge-base-spec.ts';

/*
 * Input checks every KnowledgeBase backend can share, so that a bad call fails the same way
 * everywhere. Each parser returns a fresh copy: stored data never aliases caller objects.
 */

const id = z.string().min(1).max(512);
const time = z.number().finite();

const chunkSchema = z.object({
  id,
  text: z.string(),
  context: z.string().optional(),
  tokenCount: z.number().int().nonnegative(),
  metadata: z.object({
    sessionId: z.string(),
    kind: z.enum(['summary', 'archive']),
    summaryId: id.optional(),
    messageIds: z.array(id),
    createdAt: time,
    start: time.optional(),
    end: time.optional(),
  }),
});

const searchOptionsSchema = z.object({
  topK: z.number().int().positive(),
  sessionId: z.string().optional(),
});

const deleteFilterSchema = z.object({
  sessionId: z.string(),
  messageIds: z.array(id).optional(),
  summaryIds: z.array(id).optional(),
});

const countFilterSchema = z.object({ sessionId: z.string().optional() });

/** Checks a batch for `add`. @throws MemValidationError naming the bad path (`chunks[2].text`). */
export function parseChunks(chunks: unknown): KnowledgeChunk[] {
  if (!Array.isArray(chunks)) {
    throw new MemValidationError('chunks', '[mem/knowledge] chunks must be an array of chunks.');
  }
  return chunks.map((chunk: unknown, i) => {
    const field = `chunks[${i}]`;
    const { metadata: m, ...rest } = parseWith(chunkSchema, chunk, field);
    assertValidSessionId(m.sessionId, `${field}.metadata.sessionId`);
    const metadata: KnowledgeChunk['metadata'] = {
      sessionId: m.sessionId,
      kind: m.kind,
      messageIds: [...m.messageIds],
      createdAt: m.createdAt,
    };
    if (m.summaryId !== undefined) metadata.summaryId = m.summaryId;
    if (m.start !== undefined) metadata.start = m.start;
    if (m.end !== undefined) metadata.end = m.end;
    const parsed: KnowledgeChunk = {
      id: rest.id,
      text: rest.text,
      tokenCount: rest.tokenCount,
      metadata,
    };
    if (rest.context !== undefined) parsed.context = rest.context;
    return parsed;
  });
}

export function parseSearchOptions(options: unknown): KnowledgeSearchOptions {
  // The usual call, checked without the schema (the same outcome, a search's fixed cost).
  if (typeof options === 'object' && options !== null && !Array.isArray(options)) {
    const { topK, sessionId } = options as Record<string, unknown>;
    if (typeof topK === 'number' && Number.isSafeInteger(topK) && topK > 0) {
      if (sessionId === undefined) return { topK };
      if (typeof sessionId === 'string') {
        assertValidSessionId(sessionId, 'options.sessionId');
        return { topK, sessionId };
      }
    }
  }
  const parsed = parseWith(searchOptionsSchema, options, 'options');
  if (parsed.sessionId === undefined) return { topK: parsed.topK };
  assertValidSessionId(parsed.sessionId, 'options.sessionId');
  return { topK: parsed.topK, sessionId: parsed.sessionId };
}

export function parseDeleteFilter(filter: unknown): KnowledgeDeleteFilter {
  const parsed = parseWith(deleteFilterSchema, filter, 'filter');
  assertValidSessionId(parsed.sessionId, 'filter.sessionId');
  const out: KnowledgeDeleteFilter = { sessionId: parsed.sessionId };
  if (parsed.messageIds !== undefined) out.messageIds = [...parsed.messageIds];
  if (parsed.summaryIds !== undefined) out.summaryIds = [...parsed.summaryIds];
  return out;
}

export function parseCountFilter(filter: unknown): KnowledgeCountFilter {
  const parsed = parseWith(countFilterSchema, filter ?? {}, 'filter');
  if (parsed.sessionId === undefined) return {};
  assertValidSessionId(parsed.sessionId, 'filter.sessionId');
  return { sessionId: parsed.sessionId };
}

export function parseQuery(query: unknown): string {
  if (typeof query !== 'string') {
    throw new MemValidationError('query', '[mem/knowledge] query must be a string.');
  }
  return query;
}

function parseWith<S extends z.ZodType>(schema: S, value: unknown, root: string): z.output<S> {
  return parseStoreInput(schema, value, root, 'mem/knowledge');
}
