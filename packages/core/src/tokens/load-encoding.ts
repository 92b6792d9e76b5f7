import { MemError } from '../errors/mem-error.ts';

/** Tokenizer encodings mem counts with. */
export type TokenEncoding = 'o200k_base' | 'cl100k_base';

type EncodingModule = typeof import('gpt-tokenizer/encoding/o200k_base');
type ConstantsModule = typeof import('gpt-tokenizer/encodingParams/constants');

/** What the counter uses of one gpt-tokenizer encoding. */
export interface LoadedEncoding {
  readonly api: EncodingModule['default'];
  /** The encoding's pre-tokenizer regex, used to keep long pieces away from the quadratic BPE. */
  readonly splitRegex: RegExp;
}

/**
 * Encodings are loaded on first use, each on its own: importing `@mem/core` loads no tokenizer
 * data (o200k_base is 2.4 MB of source and ~65 MB of heap, cl100k_base 1.2 MB and ~40 MB), and a
 * process that counts with one encoding never loads the other.
 *
 * Two ways in, sharing one cache:
 * - `loadEncoding` (what `TokenCounter.ready()` awaits): `import()` with one literal specifier per
 *   encoding, so a bundler puts each encoding in its own chunk, fetched only when needed.
 * - `loadEncodingSync` (a count before `ready()`): on Node, `require()` of the same ES module file
 *   that `import()` resolves to (Node >= 20.19 requires ES modules), so both ways share one
 *   module instance. Where there is no `require` (a browser or edge bundle), it throws a MemError
 *   saying to `await counter.ready()` first.
 */
const loaded = new Map<TokenEncoding, LoadedEncoding>();
const loading = new Map<TokenEncoding, Promise<LoadedEncoding>>();

const importers: Record<TokenEncoding, () => Promise<LoadedEncoding>> = {
  o200k_base: async () => {
    const [encoding, constants] = await Promise.all([
      import('gpt-tokenizer/encoding/o200k_base'),
      import('gpt-tokenizer/encodingParams/constants'),
    ]);
    return { api: encoding.default, splitRegex: constants.O200K_TOKEN_SPLIT_REGEX };
  },
  cl100k_base: async () => {
    const [encoding, constants] = await Promise.all([
      import('gpt-tokenizer/encoding/cl100k_base'),
      import('gpt-tokenizer/encodingParams/constants'),
    ]);
    return { api: encoding.default, splitRegex: constants.CL100K_TOKEN_SPLIT_REGEX };
  },
};

const splitRegexNames = {
  o200k_base: 'O200K_TOKEN_SPLIT_REGEX',
  cl100k_base: 'CL100K_TOKEN_SPLIT_REGEX',
} as const;

/** The encoding if it is loaded already, else undefined. */
export function loadedEncoding(encoding: TokenEncoding): LoadedEncoding | undefined {
  return loaded.get(encoding);
}

/** Loads `encoding` (once per process; concurrent callers share the load). */
export function loadEncoding(encoding: TokenEncoding): Promise<LoadedEncoding> {
  const done = loaded.get(encoding);
  if (done !== undefined) return Promise.resolve(done);
  let pending = loading.get(encoding);
  if (pending === undefined) {
    pending = importers[encoding]().then(
      (result) => {
        loading.delete(encoding);
        // A synchronous load may have won meanwhile: keep the first, so counts share one cache.
        const first = loaded.get(encoding) ?? result;
        loaded.set(encoding, first);
        return first;
      },
      (cause: unknown) => {
        loading.delete(encoding);
        throw new MemError('MEM_TOKENIZER', `[mem/core] could not load the ${encoding} encoding`, {
          cause,
        });
      },
    );
    loading.set(encoding, pending);
  }
  return pending;
}

/** Loads `encoding` now, synchronously (Node); throws a MemError where that is impossible. */
export function loadEncodingSync(encoding: TokenEncoding): LoadedEncoding {
  const done = loaded.get(encoding);
  if (done !== undefined) return done;
  const result = requireEncoding(encoding);
  if (result === undefined) {
    throw new MemError(
      'MEM_TOKENIZER',
      `[mem/core] the ${encoding} encoding is not loaded yet and cannot be loaded synchronously ` +
        'here (no Node require, e.g. a browser or edge bundle): `await counter.ready()` once ' +
        'before counting synchronously. The engine, Memory and MemoryManager do this for you.',
    );
  }
  loaded.set(encoding, result);
  return result;
}

type NodeModuleBuiltin = typeof import('node:module');

function requireEncoding(encoding: TokenEncoding): LoadedEncoding | undefined {
  // Reached through `process`, not imported: a browser bundle must not pull in `node:module`.
  const nodeProcess = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } })
    .process;
  const builtin = nodeProcess?.getBuiltinModule?.('node:module') as NodeModuleBuiltin | undefined;
  if (builtin === undefined) return undefined;
  const nodeRequire = builtin.createRequire(import.meta.url);
  let root: string;
  try {
    root = nodeRequire.resolve('gpt-tokenizer/package.json').slice(0, -'package.json'.length);
  } catch {
    return undefined; // bundled without node_modules beside it: only `ready()` can load it
  }
  const load = (build: 'esm' | 'cjs'): LoadedEncoding => {
    const module = nodeRequire(`${root}${build}/encoding/${encoding}.js`) as EncodingModule;
    const constants = nodeRequire(`${root}${build}/encodingParams/constants.js`) as ConstantsModule;
    return { api: module.default, splitRegex: constants[splitRegexNames[encoding]] };
  };
  try {
    return load('esm');
  } catch {
    // Node 24 refuses to require an ES module while an import() of it is still in flight
    // (ERR_REQUIRE_ESM_RACE_CONDITION): the CommonJS build counts the same, as a second copy.
    try {
      return load('cjs');
    } catch {
      return undefined;
    }
  }
}
