import { MemError } from '../errors/mem-error.ts';

/** What the Claude counter uses of ai-tokenizer's Claude encoding. */
export interface ClaudeEncoding {
  /** Tokens of `text`, read as plain text (special-token markers like `<EOT>` are text too). */
  count(text: string): number;
  /** Lengths of the tokens of an ASCII text, in characters. */
  tokenLengths(ascii: string): number[];
  /** The encoding's pre-tokenizer regex (flags `gu`). */
  readonly splitRegex: RegExp;
}

/**
 * The Claude encoding comes from ai-tokenizer (MIT, see THIRD_PARTY_NOTICES.md). It is not a
 * dependency of @mem/core: the build bundles it into a chunk of its own that only this `import()`
 * reaches, so importing @mem/core loads none of its 2.3 MB, and a process that never counts for
 * Claude never loads it. There is no synchronous way in: a Claude counter counts after
 * `ready()` (the engine, `Memory` and `MemoryManager` await it before they first count).
 */
let loaded: ClaudeEncoding | undefined;
let loading: Promise<ClaudeEncoding> | undefined;

async function importClaude(): Promise<ClaudeEncoding> {
  const [{ Tokenizer }, data] = await Promise.all([
    import('ai-tokenizer'),
    import('ai-tokenizer/encoding/claude'),
  ]);
  const tokenizer = new Tokenizer(data);
  // With every special token allowed, encode() skips special-token parsing: markers such as
  // `<EOT>` are plain text, as mem counts them (the default would throw on them).
  const encode = (text: string): number[] => tokenizer.encode(text, 'all');
  return {
    count: (text) => encode(text).length,
    tokenLengths: (ascii) => encode(ascii).map((t) => tokenizer.decode([t]).length),
    splitRegex: new RegExp(data.pat_str, 'gu'),
  };
}

/** The Claude encoding if it is loaded already, else undefined. */
export function loadedClaudeEncoding(): ClaudeEncoding | undefined {
  return loaded;
}

/** Loads the Claude encoding (once per process; concurrent callers share the load). */
export function loadClaudeEncoding(): Promise<ClaudeEncoding> {
  if (loaded !== undefined) return Promise.resolve(loaded);
  loading ??= importClaude().then(
    (result) => {
      loaded = result;
      loading = undefined;
      return result;
    },
    (cause: unknown) => {
      loading = undefined;
      throw new MemError('MEM_TOKENIZER', '[mem/core] could not load the Claude encoding', {
        cause,
      });
    },
  );
  return loading;
}

/** The loaded Claude encoding; a MemError saying to await `ready()` when it is not loaded yet. */
export function claudeEncodingNow(): ClaudeEncoding {
  if (loaded !== undefined) return loaded;
  throw new MemError(
    'MEM_TOKENIZER',
    '[mem/core] the Claude encoding is not loaded yet: `await counter.ready()` once before ' +
      'counting for a Claude model (it loads on first use, never synchronously). The engine, ' +
      'Memory and MemoryManager do this for you.',
  );
}
