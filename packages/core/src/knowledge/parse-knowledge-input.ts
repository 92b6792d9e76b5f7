import { z } from 'zod';
import { MemValidationError } from '../errors/errors.ts';
import { parseWith as parseStoreInput } from '../store/parse-store-input.ts';
import { assertValidSessionId, assertValidUserId } from '../store/validate-ids.ts';
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
    userId: z.unknown().optional(),
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
  sessionId: z.unknown().optional(),
  userId: z.unknown().optional(),
});

const deleteFilterSchema = z.object({
  sessionId: z.unknown().optional(),
  userId: z.unknown().optional(),
  messageIds: z.array(id).optional(),
  summaryIds: z.array(id).optional(),
});

const countFilterSchema = z.object({
  sessionId: z.unknown().optional(),
  userId: z.unknown().optional(),
});

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
    if (m.userId !== undefined) {
      assertValidUserId(m.userId, `${field}.metadata.userId`);
      metadata.userId = m.userId;
    }
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
    const { topK, sessionId, userId } = options as Record<string, unknown>;
    if (typeof topK === 'number' && Number.isSafeInteger(topK) && topK > 0) {
      if (sessionId === undefined && userId === undefined) return { topK };
      return { topK, ...scope(sessionId, userId, 'options') };
    }
  }
  const parsed = parseWith(searchOptionsSchema, options, 'options');
  return { topK: parsed.topK, ...scope(parsed.sessionId, parsed.userId, 'options') };
}

/**
 * Checks a `delete` filter (see `KnowledgeDeleteFilter`): `sessionId` with optional `userId`,
 * `messageIds` and `summaryIds`, or `userId` alone.
 */
export function parseDeleteFilter(filter: unknown): KnowledgeDeleteFilter {
  const parsed = parseWith(deleteFilterSchema, filter, 'filter');
  const { sessionId, userId, messageIds, summaryIds } = parsed;
  if (sessionId === undefined) {
    if (userId === undefined) {
      throw new MemValidationError(
        'filter.sessionId',
        "[mem/knowledge] a delete filter needs filter.sessionId (a session's chunks) or filter.userId (every chunk of a user), or both.",
      );
    }
    assertValidUserId(userId, 'filter.userId');
    const list =
      messageIds !== undefined ? 'messageIds' : summaryIds !== undefined ? 'summaryIds' : undefined;
    if (list !== undefined) {
      throw new MemValidationError(
        `filter.${list}`,
        `[mem/knowledge] filter.${list} needs filter.sessionId: message and summary ids are unique only within a session. Pass { sessionId, userId, ${list} }, or { userId } alone to delete every chunk of the user.`,
      );
    }
    return { userId };
  }
  assertValidSessionId(sessionId, 'filter.sessionId');
  const out: KnowledgeDeleteFilter = { sessionId };
  if (userId !== undefined) {
    assertValidUserId(userId, 'filter.userId');
    out.userId = userId;
  }
  if (messageIds !== undefined) out.messageIds = [...messageIds];
  if (summaryIds !== undefined) out.summaryIds = [...summaryIds];
  return out;
}

export function parseCountFilter(filter: unknown): KnowledgeCountFilter {
  const parsed = parseWith(countFilterSchema, filter ?? {}, 'filter');
  return scope(parsed.sessionId, parsed.userId, 'filter');
}

/** `sessionId` and `userId`, each only when given, checked (`${root}.sessionId`, ...). */
function scope(sessionId: unknown, userId: unknown, root: string): KnowledgeCountFilter {
  const target: KnowledgeCountFilter = {};
  if (sessionId !== undefined) {
    assertValidSessionId(sessionId, `${root}.sessionId`);
    target.sessionId = sessionId;
  }
  if (userId !== undefined) {
    assertValidUserId(userId, `${root}.userId`);
    target.userId = userId;
  }
  return target;
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
