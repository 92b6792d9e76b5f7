import { join } from 'node:path';
import { MemError } from '@mem/core';
import { ConversationFileError } from '../conversation/conversation-error.ts';
import type { CliIo } from './cli-io.ts';
import { printable } from './printable.ts';
import { replayCommand } from './replay-command.ts';
import { USAGE, UsageError } from './usage-error.ts';

/**
 * The `mem-playground` command line. Resolves to the exit code: 0 ok, 1 the command failed at
 * run time, 2 bad usage, conversation file or profile. Errors are printed as one clear message,
 * never a stack trace (set MEM_PLAYGROUND_DEBUG=1 to see it).
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [command, ...args] = argv;
  try {
    if (
      command === undefined ||
      command === '-h' ||
      command === '--help' ||
      args.includes('--help') ||
      args.includes('-h')
    ) {
      (command === undefined ? io.stderr : io.stdout).write(`${USAGE}\n`);
      return command === undefined ? 2 : 0;
    }
    if (command === 'replay') return await replayCommand(args, io);
    if (command === 'serve') return await serveCommand(args);
    throw new UsageError(`unknown command ${JSON.stringify(command)}; use replay or serve`);
  } catch (error) {
    const usage = isUsageProblem(error);
    const message = error instanceof Error ? error.message : String(error);
    io.stderr.write(printable(`mem-playground ${command ?? ''}: ${message}\n`));
    if (error instanceof UsageError || isParseArgsError(error)) {
      io.stderr.write('Run mem-playground --help for usage.\n');
    }
    if (process.env.MEM_PLAYGROUND_DEBUG && error instanceof Error)
      io.stderr.write(printable(`${error.stack}\n`));
    return usage ? 2 : 1;
  }
}

function isUsageProblem(error: unknown): boolean {
  return (
    error instanceof UsageError ||
    ConversationFileError.isInstance(error) ||
    MemError.hasCode(error, 'MEM_CONFIG') ||
    isParseArgsError(error)
  );
}

function isParseArgsError(error: unknown): boolean {
  return (
    error instanceof Error && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS')
  );
}

/** The port `serve` uses when neither `--port` nor `PORT` says otherwise. */
export const DEFAULT_PORT = 4310;

/**
 * `mem-playground serve [--port N] [--data-dir DIR]`: starts the web playground
 * (src/server/main.ts) on 127.0.0.1, prints its address and where the replays' SQLite files live,
 * and serves until SIGINT/SIGTERM. Port: `--port`, else `PORT`, else 4310; 0 picks a free one.
 * Data dir: `--data-dir`, else `MEM_PLAYGROUND_DATA_DIR`, else the OS's temp dir.
 */
async function serveCommand(args: string[]): Promise<number> {
  const { parseArgs } = await import('node:util');
  const { values } = parseArgs({
    args,
    options: { port: { type: 'string' }, 'data-dir': { type: 'string' } },
  });
  const raw = values.port ?? process.env.PORT ?? String(DEFAULT_PORT);
  const port = Number(raw);
  if (raw.trim() === '' || !Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new UsageError(`--port must be an integer from 0 to 65535, got ${JSON.stringify(raw)}`);
  }
  const { startPlaygroundServer } = await import('../server/main.ts');
  let server: Awaited<ReturnType<typeof startPlaygroundServer>>;
  try {
    server = await startPlaygroundServer({
      port,
      host: '127.0.0.1',
      log: (line) => process.stderr.write(`${line}\n`),
      ...(values['data-dir'] === undefined ? {} : { dataDir: values['data-dir'] }),
    });
  } catch (error) {
    if ((error as { code?: unknown }).code === 'EADDRINUSE') {
      throw new UsageError(
        `port ${port} is in use; pick another with --port N (0 = any free port)`,
      );
    }
    throw error;
  }
  process.stdout.write(
    `mem playground: ${server.url}  (Ctrl-C stops it)\n` +
      `store: SQLite by default, a fresh file per replay under ${join(server.dataDir, 'mem-playground-worker-*')} (removed when the server stops)\n`,
  );
  // Ctrl-C reaches this process twice (from the terminal's process group and forwarded by
  // bin/mem-playground.mjs): the handlers stay on until the server has closed, so a repeated
  // signal cannot kill it before it removed its SQLite files.
  let stop: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => {
    stop = resolve;
  });
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  await stopped;
  await server.close();
  process.off('SIGINT', stop);
  process.off('SIGTERM', stop);
  return 0;
}
