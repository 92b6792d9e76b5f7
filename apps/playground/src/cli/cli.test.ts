import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { presetProfile } from '../replay/presets.ts';
import { expectUsageError, runBin } from './__fixtures__/cli-process.ts';

const CONVERSATION = fileURLToPath(
  new URL('../../../../packages/core/examples/support-desk.conversation.json', import.meta.url),
);
const dir = mkdtempSync(join(tmpdir(), 'playground-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const COMBINED = file('combined.json', JSON.stringify(presetProfile('combined')));

/** Runs the real bin as a child process, from a directory outside the workspace. */
const cli = (...args: string[]) => runBin(dir, args);

describe.concurrent('mem-playground replay (child process)', () => {
  it('replays and prints the summary table (exit 0, nothing on stderr off a terminal)', async () => {
    const run = await cli('replay', CONVERSATION, '--profile', COMBINED);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/\| turns +\| 52 +\|/);
    expect(run.stdout).toMatch(/\| store +\| sqlite /);
    expect(run.stdout).toMatch(/\| compactions +\| [2-9] +\|/);
    expect(run.stdout).toMatch(/\| compression ratio +\| 0\.\d{3} \(summary\/original, \d+\.\dx\)/);
    for (const row of [
      'messages',
      'tokens stored',
      'tokens sent',
      'erasures',
      'time per turn',
      'total time',
    ]) {
      expect(run.stdout).toContain(`| ${row}`);
    }
  });

  it('--json prints one JSON line with the stats', async () => {
    const run = await cli(
      'replay',
      CONVERSATION,
      '--profile',
      COMBINED,
      '--store',
      'memory',
      '--json',
    );
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const out = JSON.parse(lines[0]!);
    expect(out).toMatchObject({ store: 'memory', stats: { turns: 52, erasures: 0 } });
    expect(out.stats.compactions).toBeGreaterThanOrEqual(2);
    expect(out.stats.tokensSent).toBeLessThan(out.stats.tokensStored);
  });

  it('exit 2 for a missing conversation file, naming it', async () => {
    const missing = join(dir, 'missing.json');
    expectUsageError(
      await cli('replay', missing, '--profile', COMBINED),
      new RegExp(`${missing}: cannot read .*no such file`),
    );
  });

  it('exit 2 for a conversation that is not JSON', async () => {
    expectUsageError(
      await cli('replay', file('broken.json', '{"messages": [}'), '--profile', COMBINED),
      /broken\.json: is not valid JSON/,
    );
  });

  it('exit 2 for an invalid profile, listing every bad path', async () => {
    const bad = file(
      'bad-profile.json',
      JSON.stringify({
        short_term_memory_strategy: [
          { memory_strategy_id: 'max_tokens', memory_max_tokens: 'lots' },
        ],
        long_term_memory_strategy: [{ long_term_memory_id: 'summarizer', interaction_keep: -1 }],
      }),
    );
    const run = await cli('replay', CONVERSATION, '--profile', bad);
    expectUsageError(
      run,
      /invalid config in .*bad-profile\.json/,
      /short_term_memory_strategy\[0\]\.memory_max_tokens/,
      /long_term_memory_strategy\[0\]\.interaction_keep/,
    );
  });

  it('exit 2 for a profile file that is missing or not JSON', async () => {
    expectUsageError(
      await cli('replay', CONVERSATION, '--profile', join(dir, 'none.json')),
      /cannot read the profile .*none\.json/,
    );
    expectUsageError(
      await cli('replay', CONVERSATION, '--profile', file('p.json', 'nope')),
      /profile .*p\.json is not valid JSON/,
    );
  });

  it('exit 2 for bad usage: unknown --store, missing --profile, redis without a URL, unknown option or command', async () => {
    expectUsageError(
      await cli('replay', CONVERSATION, '--profile', COMBINED, '--store', 'mongo'),
      /unknown --store "mongo": use sqlite, memory or redis/,
      /--help/,
    );
    expectUsageError(await cli('replay', CONVERSATION), /needs --profile/);
    expectUsageError(
      await cli('replay', CONVERSATION, '--profile', COMBINED, '--store', 'redis'),
      /--redis-url/,
    );
    expectUsageError(
      await cli('replay', CONVERSATION, '--profile', COMBINED, '--fast'),
      /Unknown option '--fast'/,
    );
    expectUsageError(await cli('rewind'), /unknown command "rewind"/);
  });

  it('exit 1 with one message when the replay itself fails (an unwritable SQLite path)', async () => {
    const run = await cli(
      'replay',
      CONVERSATION,
      '--profile',
      COMBINED,
      '--sqlite-path',
      join(dir, 'no', 'such', 'dir', 'x.sqlite'),
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/\[mem\/sqlite\] could not open the SQLite database/);
    expect(run.stderr).not.toMatch(/^\s+at /m);
  });

  it('--help prints the usage and exits 0', async () => {
    const run = await cli('--help');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /mem-playground replay <conversation\.json> --profile <profile\.json>/,
    );
  });
});
