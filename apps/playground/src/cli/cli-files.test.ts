import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_CONVERSATION_BYTES } from '../conversation/read-text-file.ts';
import { type CliRun, expectUsageError, runBin } from './__fixtures__/cli-process.ts';
import { runCli } from './run-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'playground-cli-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, bytes: string | Buffer) => {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
};
const cli = (...args: string[]) => runBin(dir, args, 100_000);
/** The same command in this process, writing to strings instead of the terminal. */
async function cliHere(...args: string[]): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { isTTY: false, write: (text: string) => (stderr += text) },
  });
  return { code, stdout, stderr };
}

const PROFILE = file(
  'profile.json',
  JSON.stringify({ short_term_memory_strategy: [{ memory_strategy_id: 'max_tokens' }] }),
);
const CHAT = JSON.stringify({
  title: 'Files',
  messages: [
    { role: 'system', content: 'You help with freight.' },
    { role: 'user', content: 'Where is BW-20418? Grüße aus München' },
    { role: 'assistant', content: 'It left Rotterdam on Tuesday.' },
    { role: 'user', content: 'Thanks!' },
  ],
});
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const utf16 = (text: string, order: 'le' | 'be', bom: boolean) => {
  const bytes = Buffer.from(`${bom ? '\ufeff' : ''}${text}`, 'utf16le');
  return order === 'be' ? bytes.swap16() : bytes;
};
/** Any byte a terminal would act on: C0 controls except newline and tab, DEL, C1 controls. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

/** Exit 0 and the replay's JSON line: the file was read as the conversation it holds. */
function expectReplayed(run: CliRun) {
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  const line = JSON.parse(run.stdout.trim()) as { conversation: string; stats: { turns: number } };
  expect(line).toMatchObject({ conversation: 'Files', stats: { turns: 2 } });
}

describe('mem-playground replay reads files safely', () => {
  it('refuses a conversation file over the size limit from its size, naming the limit', async () => {
    const big = join(dir, 'big.json');
    writeFileSync(big, '');
    truncateSync(big, MAX_CONVERSATION_BYTES + 1); // sparse: no disk used
    const run = await cli('replay', big, '--profile', PROFILE, '--store', 'memory');
    expectUsageError(run, /big\.json: is 32 MB, over the limit of 32 MB/);
    expect(run.stderr).not.toMatch(/undefined/);
  });

  it('refuses an endless character device (/dev/zero) after reading just past the limit', async () => {
    const run = await cli('replay', '/dev/zero', '--profile', PROFILE, '--store', 'memory');
    expectUsageError(run, /\/dev\/zero: is larger than the limit of 32 MB/);
    expect(run.stderr).not.toMatch(/undefined/);
    expectUsageError(
      await cliHere('replay', file('c.json', CHAT), '--profile', '/dev/zero'),
      /the profile \/dev\/zero is larger than the limit of 1 MB/,
    );
  });

  it('accepts a UTF-8 byte order mark on the conversation and on the profile', async () => {
    const conversation = file('bom.json', Buffer.concat([BOM, Buffer.from(CHAT)]));
    const profile = file('bom-profile.json', Buffer.concat([BOM, Buffer.from('{}')]));
    expectReplayed(await cli('replay', conversation, '--profile', profile, '--json'));
  });

  it('decodes UTF-16 (LE and BE, with or without a BOM) instead of echoing NUL bytes', async () => {
    for (const [order, bom] of [
      ['le', true],
      ['be', true],
      ['le', false],
    ] as const) {
      const conversation = file(`utf16-${order}-${bom}.json`, utf16(CHAT, order, bom));
      const run = await cliHere('replay', conversation, '--profile', PROFILE, '--json');
      expectReplayed(run);
    }
  });

  it('names binary and non-UTF-8 files clearly and never prints their control bytes', async () => {
    const cases: [string, Buffer, RegExp][] = [
      ['nul.json', Buffer.from('{"messages":\u0000\u0000[]}'), /NUL character at offset 12/],
      ['latin1.json', Buffer.from([0x7b, 0x22, 0xe9, 0x22, 0x7d]), /is not UTF-8 text/],
      ['escape.json', Buffer.from('{"messages": \u001b[2J\u0007}'), /is not valid JSON/],
      ['odd.json', Buffer.from([0xff, 0xfe, 0x7b]), /UTF-16 \(LE\) but has an odd number/],
    ];
    for (const [name, bytes, pattern] of cases) {
      const run = await cliHere('replay', file(name, bytes), '--profile', PROFILE);
      expectUsageError(run, pattern);
      expect(run.stderr, name).not.toMatch(CONTROL);
    }
    const escaped = await cliHere(
      'replay',
      file('esc.json', Buffer.from('\u001b[31m')),
      '--profile',
      PROFILE,
    );
    expect(escaped.stderr).toContain('\\u{001B}');
  });

  it('never prints control characters from a conversation title in the summary table', async () => {
    const title = 'Red \u001b[31malert\u001b[0m \u0007 bell';
    const conversation = file('title.json', JSON.stringify({ ...JSON.parse(CHAT), title }));
    const run = await cliHere('replay', conversation, '--profile', PROFILE, '--store', 'memory');
    expect(run.code).toBe(0);
    expect(run.stdout).not.toMatch(CONTROL);
    expect(run.stdout).toContain('Red \\u{001B}[31malert');
  });
});
