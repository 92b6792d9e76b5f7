import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import Tokenizer from 'ai-tokenizer';
import * as claude from 'ai-tokenizer/encoding/claude';
import * as cl100k from 'gpt-tokenizer/encoding/cl100k_base';
import * as o200k from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { MemValidationError } from '../errors/errors.ts';
import { createTokenCounter } from './token-counter.ts';

const TEXT = 'Tokenizer data loads on first use: hello, world! 12345 héllo 🙂 <|endoftext|>';
const PLAIN = { disallowedSpecial: new Set<string>() };
const probe = fileURLToPath(new URL('./__fixtures__/encoding-probe.ts', import.meta.url));

interface ProbeResult {
  count?: number;
  parsed: string[];
  aiTokenizer: string[];
  beforeReady?: { code: string; message: string } | string;
}

/** Runs the probe in a fresh Node process: nothing of this test's module graph is shared. */
async function runProbe(mode: string, encoding = 'o200k_base'): Promise<ProbeResult> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', probe, mode, encoding, TEXT],
    { timeout: 60_000 },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as ProbeResult;
}

/** The encodings' data (bpeRanks) and entry modules parsed; encodingParams are small and shared. */
const rankFiles = (r: ProbeResult) => r.parsed.filter((f) => f.includes('bpeRanks/')).sort();
const encodingFiles = (r: ProbeResult) => r.parsed.filter((f) => f.includes('/encoding/')).sort();

describe('tokenizer encodings load on first use', () => {
  it('importing @mem/core loads no tokenizer data', async () => {
    const result = await runProbe('import');
    expect(rankFiles(result)).toEqual([]);
    expect(encodingFiles(result)).toEqual([]);
    expect(result.aiTokenizer).toEqual([]);
  });

  it('the Claude encoding loads on the first Claude count, and no OpenAI encoding with it', async () => {
    const result = await runProbe('claude');
    const raw = new Tokenizer(claude);
    expect(result.count).toBe(Math.round(raw.encode(TEXT, 'all').length * 1.1));
    expect(result.aiTokenizer.filter((f) => f.includes('encoding/claude')).length).toBeGreaterThan(
      0,
    );
    expect(result.aiTokenizer.filter((f) => /o200k|cl100k|p50k/.test(f))).toEqual([]);
    expect(rankFiles(result)).toEqual([]);
  });

  it('a synchronous count before ready() works on Node and loads only o200k_base', async () => {
    const result = await runProbe('sync');
    expect(result.count).toBe(o200k.countTokens(TEXT, PLAIN));
    expect(rankFiles(result)).toEqual(['esm/bpeRanks/o200k_base.js']);
    expect(encodingFiles(result)).toEqual(['esm/encoding/o200k_base.js']);
  });

  it('counting after ready() loads only the counter’s encoding', async () => {
    const [o200kOnly, cl100kOnly] = await Promise.all([
      runProbe('ready', 'o200k_base'),
      runProbe('ready', 'cl100k_base'),
    ]);
    expect(o200kOnly.count).toBe(o200k.countTokens(TEXT, PLAIN));
    expect(rankFiles(o200kOnly)).toEqual(['esm/bpeRanks/o200k_base.js']);
    expect(cl100kOnly.count).toBe(cl100k.countTokens(TEXT, PLAIN));
    expect(rankFiles(cl100kOnly)).toEqual(['esm/bpeRanks/cl100k_base.js']);
  });

  it('without Node’s require, a count before ready() throws a MemError naming ready()', async () => {
    const result = await runProbe('no-require');
    expect(result.beforeReady).toMatchObject({
      code: 'MEM_TOKENIZER',
      message: expect.stringContaining('await counter.ready()'),
    });
    expect(result.count).toBe(o200k.countTokens(TEXT, PLAIN));
    expect(rankFiles(result)).toEqual(['esm/bpeRanks/o200k_base.js']);
  });
});

describe('TokenCounter.ready()', () => {
  it('resolves, and counts equal gpt-tokenizer’s for both encodings', async () => {
    for (const [encoding, api] of [
      ['o200k_base', o200k],
      ['cl100k_base', cl100k],
    ] as const) {
      const counter = createTokenCounter({ encoding });
      await expect(counter.ready?.()).resolves.toBeUndefined();
      await counter.ready?.(); // again: already loaded
      for (const text of [TEXT, '', 'a', '  spaces\n\nand lines  ', 'x'.repeat(500)]) {
        const expected = text.length > 128 ? undefined : api.countTokens(text, PLAIN);
        if (expected !== undefined) expect(counter.countText(text)).toBe(expected);
        expect(counter.decode?.(counter.encode?.(text) ?? [])).toBe(text);
      }
      expect(counter.encode?.(TEXT)).toEqual(api.encode(TEXT, PLAIN));
    }
  });

  it('counters created after an encoding loaded count at once', async () => {
    await createTokenCounter({ model: 'gpt-4' }).ready?.();
    expect(createTokenCounter({ model: 'gpt-4' }).countText(TEXT)).toBe(
      cl100k.countTokens(TEXT, PLAIN),
    );
  });

  it('an unknown encoding is still a MemValidationError naming `encoding`', () => {
    const make = () => createTokenCounter({ encoding: 'p50k_base' as never });
    expect(make).toThrow(MemValidationError);
    expect(make).toThrow(expect.objectContaining({ field: 'encoding' }));
  });
});
