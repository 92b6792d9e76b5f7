import { parseArgs } from 'node:util';
import { type MemoryProfile, parseProfile } from '@mem/core';
import { loadConversation } from '../conversation/load-conversation.ts';
import { MAX_PROFILE_BYTES, readTextFile, TextFileError } from '../conversation/read-text-file.ts';
import { replay } from '../replay/replay.ts';
import type { StoreKind } from '../replay/replay-types.ts';
import type { CliIo } from './cli-io.ts';
import { printable } from './printable.ts';
import { progressBar } from './progress-bar.ts';
import { summaryTable } from './summary-table.ts';
import { UsageError } from './usage-error.ts';

const STORES: readonly StoreKind[] = ['sqlite', 'memory', 'redis'];

/** `mem-playground replay <conversation> --profile <file> ...`; resolves to the exit code. */
export async function replayCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      profile: { type: 'string' },
      store: { type: 'string', default: 'sqlite' },
      'sqlite-path': { type: 'string' },
      'redis-url': { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  const [file, ...extra] = positionals;
  if (file === undefined)
    throw new UsageError(
      'replay needs a conversation file: mem-playground replay <conversation.json> --profile <profile.json>',
    );
  if (extra.length > 0)
    throw new UsageError(
      `replay takes one conversation file; unexpected ${extra.map((e) => JSON.stringify(e)).join(', ')}`,
    );
  if (values.profile === undefined)
    throw new UsageError(
      'replay needs --profile <profile.json> (a memory profile, e.g. packages/core/examples/profile.json)',
    );
  const store = values.store as StoreKind;
  if (!STORES.includes(store))
    throw new UsageError(
      `unknown --store ${JSON.stringify(values.store)}: use sqlite, memory or redis`,
    );
  if (store === 'redis' && values['redis-url'] === undefined)
    throw new UsageError(
      '--store redis needs --redis-url <url>, e.g. --redis-url redis://127.0.0.1:6379',
    );
  if (store !== 'sqlite' && values['sqlite-path'] !== undefined)
    throw new UsageError('--sqlite-path only applies to --store sqlite');

  const profile = await loadProfile(values.profile);
  const conversation = await loadConversation(file);
  const bar = progressBar(io.stderr, 'replaying');
  const result = await replay({
    conversation,
    profile,
    store,
    ...(values['sqlite-path'] === undefined ? {} : { sqlitePath: values['sqlite-path'] }),
    ...(values['redis-url'] === undefined ? {} : { redisUrl: values['redis-url'] }),
    onProgress: (done, total) => bar.update(done, total),
  }).finally(() => bar.done());

  if (values.json) {
    const line = {
      conversation: conversation.title,
      file,
      profile: values.profile,
      store,
      stats: result.stats,
    };
    io.stdout.write(`${JSON.stringify(line)}\n`);
  } else {
    const where =
      store === 'sqlite'
        ? (values['sqlite-path'] ?? 'temporary file, removed')
        : store === 'redis'
          ? values['redis-url']
          : undefined;
    io.stdout.write(`${printable(summaryTable(result, where))}\n`);
  }
  return 0;
}

/** Reads and validates a profile file. @throws UsageError or MemConfigError (every bad path). */
async function loadProfile(file: string): Promise<MemoryProfile> {
  let text: string;
  try {
    text = await readTextFile(file, MAX_PROFILE_BYTES);
  } catch (error) {
    if (!(error instanceof TextFileError)) throw error;
    throw new UsageError(
      error.unreadable
        ? `cannot read the profile ${file} (${error.message}).`
        : `the profile ${file} ${error.message}`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`the profile ${file} is not valid JSON (${(error as Error).message}).`);
  }
  return parseProfile(json, { source: file });
}
