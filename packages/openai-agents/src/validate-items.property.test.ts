import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInMemoryStore, createMemoryEngine, MemValidationError, type Store } from '@mem/core';
import { createSqliteStore } from '@mem/store-sqlite';
import type { AgentInputItem } from '@openai/agents';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { AGENT_ITEM_KEY } from './agent-items.ts';
import { MemAgentsSession } from './mem-agents-session.ts';

const cleanups: Array<() => void> = [];
afterAll(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

/** Values no store can hold as JSON, to hide anywhere in an item. */
const hostile = fc.oneof(
  fc.func(fc.integer()),
  fc.string().map((s) => Symbol(s)),
  fc.bigInt(),
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, undefined),
  fc.date({ noInvalidDate: true }),
  fc.constant(new Uint8Array([1, 2])),
  fc.constant(new Map([['a', 1]])),
);
const leaf = fc.oneof({ weight: 6, arbitrary: fc.jsonValue({ maxDepth: 2 }) }, hostile);
const nested = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.string(), tie('value'), { maxKeys: 3 }),
  ),
})).value;

const text = fc.string({ maxLength: 20 });
const part = fc.oneof(
  fc.record({ type: fc.constantFrom('input_text', 'output_text', 'reasoning_text'), text }),
  fc.record({ type: fc.constant('refusal'), refusal: text }),
  fc.record({ type: fc.constantFrom('input_image', 'image'), image: text }),
  fc.record({ type: fc.constant('input_file'), file: text }),
  nested,
);
/** Item-shaped objects: the SDK's kinds and fields, each value right or wrong. */
const itemLike = fc.record(
  {
    type: fc.constantFrom(
      'message',
      'function_call',
      'function_call_result',
      'reasoning',
      'hosted_tool_call',
      'computer_call',
      'compaction',
      'unknown',
      'future_kind',
      undefined,
    ),
    role: fc.constantFrom('user', 'assistant', 'system', 'developer', 'hacker'),
    status: fc.constantFrom('completed', 'incomplete', 'done'),
    content: fc.oneof(text, fc.array(part, { maxLength: 3 }), nested),
    callId: fc.oneof(text, nested),
    name: text,
    arguments: fc.oneof(text, nested),
    output: fc.oneof(text, part, fc.array(part, { maxLength: 2 })),
    providerData: fc.dictionary(fc.string(), nested, { maxKeys: 3 }),
  },
  { requiredKeys: [] },
);
const anyItem = fc.oneof(
  { weight: 4, arbitrary: itemLike },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  {
    weight: 1,
    arbitrary: fc.anything({
      maxDepth: 3,
      withBigInt: true,
      withBoxedValues: true,
      withDate: true,
      withMap: true,
      withSet: true,
      withNullPrototype: true,
      withObjectString: true,
      withSparseArray: true,
      withTypedArray: true,
    }),
  },
  { weight: 1, arbitrary: hostile },
);
/** Well-formed items of the SDK's kinds (and a future kind), with arbitrary JSON inside. */
const id = fc.string({ minLength: 1, maxLength: 12 });
const extra = fc.record(
  { id, providerData: fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }) },
  { requiredKeys: [] },
);
const inputText = fc.record({ type: fc.constant('input_text'), text });
const validItem = fc
  .tuple(
    fc.oneof(
      fc.record({ role: fc.constant('user'), content: fc.oneof(text, fc.array(inputText)) }),
      fc.record({
        type: fc.constant('message'),
        role: fc.constantFrom('system', 'developer'),
        content: text,
      }),
      fc.record({
        type: fc.constant('message'),
        role: fc.constant('assistant'),
        status: fc.constantFrom('completed', 'incomplete'),
        content: fc.array(
          fc.oneof(
            fc.record({ type: fc.constant('output_text'), text }),
            fc.record({ type: fc.constant('refusal'), refusal: text }),
          ),
        ),
      }),
      fc.record({ type: fc.constant('function_call'), callId: id, name: id, arguments: text }),
      fc.record({
        type: fc.constant('function_call_result'),
        callId: id,
        name: text,
        status: fc.constantFrom('completed', 'incomplete'),
        output: fc.oneof(text, fc.record({ type: fc.constant('text'), text })),
      }),
      fc.record({ type: fc.constant('reasoning'), content: fc.array(inputText) }),
      fc
        .dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 })
        .map((fields) => ({ ...fields, type: 'future_kind' })),
    ),
    extra,
  )
  .map(([item, more]) => ({ ...more, ...item }));
const batch = fc.oneof(
  fc.array(validItem, { maxLength: 4 }),
  fc.array(fc.oneof({ weight: 3, arbitrary: validItem }, anyItem), { maxLength: 4 }),
  fc.array(anyItem, { maxLength: 4 }),
);

/** The item as a JSON store holds it. */
const asJson = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

/** Batches stored and refused, so the property is known to exercise both outcomes. */
const seen = { stored: 0, refused: 0 };

async function checkBatch(store: Store, sessionId: string, items: unknown[]): Promise<void> {
  const engine = createMemoryEngine({ profile: {}, store });
  const session = new MemAgentsSession({ engine, sessionId });
  let error: unknown;
  try {
    await session.addItems(items as AgentInputItem[]);
  } catch (e) {
    error = e;
  }
  const stored = await engine.session(sessionId).messages();
  if (error !== undefined) {
    expect(error).toBeInstanceOf(MemValidationError);
    expect((error as MemValidationError).message).toMatch(/^\[mem\/openai-agents\] /);
    expect(stored).toEqual([]);
    seen.refused++;
    return;
  }
  if (items.length > 0) seen.stored++;
  expect(stored.map((m) => m.metadata?.[AGENT_ITEM_KEY])).toStrictEqual(items.map(asJson));
}

describe('addItems over arbitrary items (property-based)', () => {
  it('stores items that round-trip, or throws a MemValidationError and stores nothing', async () => {
    const store = createInMemoryStore();
    let run = 0;
    await fc.assert(
      fc.asyncProperty(batch, (items) => checkBatch(store, `s${run++}`, items)),
      { numRuns: 400 },
    );
    expect(seen.stored).toBeGreaterThan(20);
    expect(seen.refused).toBeGreaterThan(20);
  });

  it('does the same on a SQLite file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mem-agents-prop-'));
    const store = createSqliteStore({ path: join(dir, 'mem.db') });
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    cleanups.push(() => void store.close());
    let run = 0;
    await fc.assert(
      fc.asyncProperty(batch, (items) => checkBatch(store, `s${run++}`, items)),
      { numRuns: 120 },
    );
  });
});
