import fc from 'fast-check';

/**
 * Arbitrary input for the converters' "never a raw error" properties: wire-shaped objects (the
 * roles, types and field names every format uses) holding anything a caller can hand over —
 * null, bigints, symbols, functions, Dates, Maps, typed arrays, getters that throw, proxies,
 * cyclic objects, own `__proto__` keys, null prototypes and very deep nesting.
 */

const WORDS = [
  'user',
  'assistant',
  'system',
  'developer',
  'tool',
  'function',
  'text',
  'refusal',
  'image',
  'image_url',
  'input_audio',
  'file',
  'input_text',
  'output_text',
  'input_image',
  'input_file',
  'message',
  'reasoning',
  'function_call',
  'function_call_output',
  'custom',
  'tool_use',
  'tool_result',
  'tool-call',
  'tool-result',
  'tool-approval-request',
  'json',
  'error-text',
  'content',
  'data',
  'url',
  'https://x.test/a.png',
  'data:image/png;base64,AAAA',
  'AAAA',
  'image/png',
  'text/plain',
  'c1',
  '{}',
  '{"a":1}',
  '[1]',
  '{"a":',
  '',
] as const;

const KEYS = [
  'role',
  'content',
  'type',
  'text',
  'id',
  'name',
  'input',
  'output',
  'arguments',
  'call_id',
  'tool_call_id',
  'tool_calls',
  'tool_use_id',
  'is_error',
  'function',
  'custom',
  'image_url',
  'input_audio',
  'file',
  'url',
  'detail',
  'data',
  'mediaType',
  'image',
  'source',
  'toolCallId',
  'toolName',
  'providerOptions',
  'refusal',
  'summary',
  'status',
  'value',
  'signature',
  '__proto__',
  'constructor',
  'toString',
] as const;

/** A getter that throws, as a hostile proxy or accessor can. */
const throwing = (): never => {
  throw new TypeError('hostile getter');
};

/** Throws for every named property (symbols are left alone: fast-check reads its own). */
const throwingForNames = (_: object, key: string | symbol): unknown =>
  key === fc.toStringMethod
    ? () => 'Proxy<throws>'
    : typeof key === 'symbol'
      ? undefined
      : throwing();

/** Lets fast-check print `value` in a counterexample without running its traps or recursing. */
function labelled<T extends object>(value: T, label: string): T {
  Object.defineProperty(value, fc.toStringMethod, { value: () => label });
  return value;
}

function deep(depth: number, array: boolean): unknown {
  let value: unknown = 'x';
  for (let i = 0; i < depth; i++) value = array ? [value] : { type: 'text', text: value };
  return labelled(value as object, `<${depth} levels of ${array ? 'arrays' : 'objects'}>`);
}

const exotic = fc.constantFrom<(() => unknown)[]>(
  () => Symbol('s'),
  () => () => 'fn',
  () => 10n,
  () => new Date(Number.NaN),
  () => new Map([['role', 'user']]),
  () => new Set([1]),
  () => new Uint8Array([1, 2, 3]),
  () => new ArrayBuffer(2),
  () => new URL('https://x.test/a.png'),
  () => Object.create(null),
  () =>
    new Proxy(
      {},
      {
        get: throwingForNames,
        ownKeys: throwing,
        has: (_, key) => (typeof key === 'symbol' ? key === fc.toStringMethod : throwing()),
      },
    ),
  () => new Proxy([], { get: throwingForNames }),
  () => deep(20_000, true),
  () => deep(20_000, false),
  () => Number.NaN,
  () => Number.POSITIVE_INFINITY,
  () => -0,
  () => '\uD800',
  // biome-ignore lint/suspicious/noSparseArray: a hole is what this input is about.
  () => [, 1],
);

const leaf: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...WORDS) },
  { weight: 1, arbitrary: fc.constantFrom(null, undefined, true, false, 0, 1, -1, 1.5) },
  { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
  { weight: 1, arbitrary: exotic.map((make) => make()) },
);

type Twist = 'plain' | 'getter' | 'cyclic' | 'proxy' | 'null-proto' | 'proto-key';

/** An object with own data properties only (an own `__proto__` key included), then twisted. */
function build(entries: [string, unknown][], twist: Twist): Record<string, unknown> {
  const target: Record<string, unknown> = twist === 'null-proto' ? Object.create(null) : {};
  for (const [key, value] of entries) {
    Object.defineProperty(target, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  switch (twist) {
    case 'getter':
      labelled(target, `<object whose ${entries[0]?.[0] ?? 'content'} getter throws>`);
      Object.defineProperty(target, entries[0]?.[0] ?? 'content', {
        get: throwing,
        enumerable: true,
        configurable: true,
      });
      return target;
    case 'cyclic':
      target.content = [target];
      target.input = target;
      return target;
    case 'proxy':
      labelled(target, '<proxy throwing on content, input and arguments>');
      return new Proxy(target, {
        get: (t, key, receiver) =>
          key === 'content' || key === 'input' || key === 'arguments'
            ? throwing()
            : Reflect.get(t, key, receiver),
      });
    case 'proto-key':
      Object.defineProperty(target, '__proto__', {
        value: { polluted: true, role: 'system' },
        enumerable: true,
        writable: true,
        configurable: true,
      });
      return target;
    default:
      return target;
  }
}

const twist = fc.oneof(
  { weight: 8, arbitrary: fc.constant<Twist>('plain') },
  { weight: 2, arbitrary: fc.constantFrom<Twist>('getter', 'cyclic', 'proxy', 'null-proto') },
  { weight: 2, arbitrary: fc.constant<Twist>('proto-key') },
);

/** Any value, shaped like wire data often enough to reach deep into the converters. */
export const hostileValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 3, arbitrary: leaf },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.array(fc.tuple(fc.constantFrom(...KEYS), tie('value')), { maxLength: 5 }), twist)
        .map(([entries, t]) => build(entries, t)),
    },
    { weight: 1, arbitrary: fc.array(tie('value'), { maxLength: 4 }) },
  ),
})).value;

/** A wire message: a role from any format, content of anything, and a few more hostile fields. */
export const hostileMessage: fc.Arbitrary<unknown> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .tuple(
        fc.constantFrom('user', 'assistant', 'system', 'developer', 'tool', 'function', 'robot'),
        fc.oneof(fc.constantFrom(...WORDS), fc.array(hostileValue, { maxLength: 4 }), hostileValue),
        fc.array(fc.tuple(fc.constantFrom(...KEYS), hostileValue), { maxLength: 3 }),
        twist,
      )
      .map(([role, content, rest, t]) => build([['role', role], ['content', content], ...rest], t)),
  },
  { weight: 1, arbitrary: hostileValue },
);

/** A list of wire messages (or, rarely, something that is not a list at all). */
export const hostileMessages: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: fc.array(hostileMessage, { maxLength: 4 }) },
  { weight: 1, arbitrary: hostileValue },
);

const META_KEYS = [
  'mem.openai.role',
  'mem.openai.message',
  'mem.openai.parts',
  'mem.openai.customToolCalls',
  'mem.openai.refusal',
  'mem.openai.annotations',
  'mem.responses.role',
  'mem.responses.item',
  'mem.responses.layout',
  'mem.responses.parts',
  'mem.anthropic.message',
  'mem.anthropic.continues',
  'mem.anthropic.parts',
  'mem.anthropic.toolCalls',
  'mem.anthropic.toolUseAt',
  'mem.anthropic.block',
  'mem.ai-sdk.message',
  'mem.ai-sdk.role',
  'mem.ai-sdk.continues',
  'mem.ai-sdk.parts',
  'mem.ai-sdk.binary',
  'mem.ai-sdk.toolCalls',
  'mem.ai-sdk.toolCallAt',
  'mem.ai-sdk.part',
  'mem.ai-sdk.outputType',
  'mem.ai-sdk.output',
] as const;

/** A residue-like metadata value: `{ set, omit }`, index maps, or anything. */
const metaValue = fc.oneof(
  hostileValue,
  fc
    .tuple(hostileValue, fc.array(fc.constantFrom(...KEYS), { maxLength: 3 }))
    .map(([set, omit]) => ({ set, omit })),
  fc
    .array(fc.tuple(fc.constantFrom('0', '1', '__proto__'), hostileValue), { maxLength: 2 })
    .map((entries) => build(entries, 'plain')),
);

const memPart = fc.oneof(
  fc.constantFrom(...WORDS).map((text) => ({ type: 'text', text })),
  fc
    .tuple(
      fc.constantFrom('text', 'image', 'file', 'reasoning', 'provider', 'refusal', 'robot'),
      fc.array(fc.tuple(fc.constantFrom(...KEYS, 'format', 'mediaType'), hostileValue), {
        maxLength: 4,
      }),
      twist,
    )
    .map(([type, rest, t]) => build([['type', type], ...rest], t)),
  hostileValue,
);

/** Mem-like messages as a store or a user's code may hand them to the writers. */
export const hostileMemMessages: fc.Arbitrary<unknown> = fc.array(
  fc
    .tuple(
      fc.constantFrom('user', 'assistant', 'system', 'tool', 'robot'),
      fc.oneof(fc.constantFrom(...WORDS), fc.array(memPart, { maxLength: 3 }), hostileValue),
      fc.option(
        fc.oneof(
          fc.array(
            fc.record({
              id: fc.oneof(fc.constantFrom('c1', 'c2'), hostileValue),
              name: fc.oneof(fc.constantFrom('f'), hostileValue),
              arguments: fc.oneof(fc.constantFrom('{}', '{"a":1}', '[1]', '{"a":'), hostileValue),
            }),
            { maxLength: 2 },
          ),
          hostileValue,
        ),
        { nil: undefined },
      ),
      fc.array(fc.tuple(fc.constantFrom(...META_KEYS), metaValue), { maxLength: 3 }),
      fc.array(
        fc.tuple(fc.constantFrom('toolCallId', 'toolName', 'isError', 'name'), hostileValue),
        {
          maxLength: 2,
        },
      ),
      twist,
    )
    .map(([role, content, toolCalls, meta, rest, t]) =>
      build(
        [
          ['id', 'm'],
          ['role', role],
          ['content', content],
          ['createdAt', 0],
          ...(toolCalls === undefined ? [] : [['toolCalls', toolCalls] as [string, unknown]]),
          ['metadata', build(meta, 'plain')],
          ...rest,
        ],
        t,
      ),
    ),
  { maxLength: 4 },
);
