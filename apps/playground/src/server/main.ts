/**
 * The playground's web server: the page (web/) and its JSON API, on loopback only. Every body
 * below is typed in contract.ts.
 *
 *   GET  /api/config      conversation sessions, presets, stores (default sqlite), chat settings
 *   POST /api/validate    { profile } → { ok: true } | { ok: false, issues: [{ path, message }] }
 *   POST /api/replay      { profile, store?, conversation?, turns? } → { turns, stats, summaries };
 *                         store: sqlite (default; a fresh file under dataDir), memory or redis;
 *                         runs in a worker thread within the limits of replay-limits.ts (422
 *                         past one) and stops when the client disconnects
 *   GET  /api/turn/:i     TurnDetail of turn i of the last replay (and the chat after it);
 *                         ?historyLimit=N[&historyOffset=K | &historyAround=id] pages the history
 *   POST /api/ask         { question } → AskAnswer: the context the next LLM call would get for
 *                         the question after the last replay (nothing stored); 400 for a bad
 *                         question, 409 before a replay or while one runs
 *   POST /api/chat        { message } → { reply, turn, detail, stats } (409 when no model is
 *                         configured)
 *   GET  /api/user/facts  after a replay with { user }: { user, facts, sessions, forgotten }
 *   POST /api/user/forget { user } → { user, removed: { sessions, messages, facts, chunks },
 *                         replayNeeded }: engine.forgetUser for the last replay's user
 */

import { mkdir } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import type { ErrorResponse } from './contract.ts';
import { errorBody, HttpError, readJsonBody, sendJson } from './http-json.ts';
import { createPlaygroundApi, type PlaygroundApi } from './playground-api.ts';
import type { ReplayLimits } from './replay-limits.ts';
import { sendStatic, staticFile } from './static-files.ts';

export interface PlaygroundServerOptions {
  /** 0 or absent: a free port. */
  port?: number;
  /** Loopback only: `127.0.0.1` (default), `localhost` or `::1`. */
  host?: string;
  /** Offers the Redis store. Default: env MEM_REDIS_URL. */
  redisUrl?: string;
  /** Where unexpected server errors are reported (the server prints nothing itself). */
  log?: (line: string) => void;
  /** Chat settings are read from here. Default: `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Bounds of one replay; default `DEFAULT_REPLAY_LIMITS` (see README). */
  limits?: Partial<ReplayLimits>;
  /**
   * Where the replays' SQLite files are made (each worker makes `mem-playground-worker-*` in it,
   * removed when the worker ends). Default: env MEM_PLAYGROUND_DATA_DIR, else the OS's temp dir.
   */
  dataDir?: string;
}

export interface PlaygroundServer {
  url: string;
  /** Where the replays' SQLite files live (see `dataDir`). */
  dataDir: string;
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

export async function startPlaygroundServer(
  options: PlaygroundServerOptions = {},
): Promise<PlaygroundServer> {
  const host = options.host ?? '127.0.0.1';
  if (!LOOPBACK.has(host)) {
    throw new Error(
      `[mem/playground] the server only listens on loopback (127.0.0.1, ::1); got host ${host}.`,
    );
  }
  const env = options.env ?? process.env;
  const redisUrl = options.redisUrl ?? (env.MEM_REDIS_URL?.trim() || undefined);
  const dataDir = resolve(options.dataDir ?? (env.MEM_PLAYGROUND_DATA_DIR?.trim() || tmpdir()));
  await mkdir(dataDir, { recursive: true });
  const api = createPlaygroundApi({
    env,
    dataDir,
    ...(redisUrl ? { redisUrl } : {}),
    ...(options.limits ? { limits: options.limits } : {}),
  });
  const log = options.log ?? (() => undefined);
  let allowedHosts = new Set<string>();

  const server = createServer((req, res) => {
    handle(api, req, res, allowedHosts).catch((error: unknown) => {
      if (!(error instanceof HttpError))
        log(
          `[mem/playground] ${req.method} ${req.url}: ${String((error as Error)?.stack ?? error)}`,
        );
      if (res.headersSent || res.destroyed) return;
      if (error instanceof HttpError) sendJson(res, error.status, errorBody(error));
      else {
        const body: ErrorResponse = {
          error: `Internal error: ${(error as Error)?.message ?? String(error)}`,
        };
        sendJson(res, 500, body);
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  // Only these Host headers are answered, so a DNS-rebinding page cannot reach the API.
  allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
  const shown = host === '::1' ? '[::1]' : host;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${shown}:${port}`,
    dataDir,
    close() {
      closing ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        await api.close();
      })();
      return closing;
    },
  };
}

async function handle(
  api: PlaygroundApi,
  req: IncomingMessage,
  res: ServerResponse,
  allowedHosts: ReadonlySet<string>,
): Promise<void> {
  if (!allowedHosts.has(req.headers.host ?? '')) {
    throw new HttpError(
      421,
      `Unexpected Host header ${JSON.stringify(req.headers.host ?? '')}; open the URL the server printed.`,
    );
  }
  const url = new URL(req.url ?? '/', 'http://localhost');
  const path = url.pathname;
  const method = req.method ?? 'GET';
  const route = `${method} ${path}`;
  if (route === 'GET /api/config') return sendJson(res, 200, await api.config());
  if (route === 'POST /api/validate')
    return sendJson(res, 200, api.validate(await readJsonBody(req)));
  if (route === 'POST /api/replay') {
    // A replay stops when its client goes away (the page aborts a replay a newer one overtook).
    const gone = new AbortController();
    res.once('close', () => gone.abort());
    return sendJson(res, 200, await api.replay(await readJsonBody(req), gone.signal));
  }
  if (route === 'POST /api/ask') return sendJson(res, 200, await api.ask(await readJsonBody(req)));
  if (route === 'POST /api/chat')
    return sendJson(res, 200, await api.chat(await readJsonBody(req)));
  if (route === 'GET /api/user/facts') return sendJson(res, 200, await api.userFacts());
  if (route === 'POST /api/user/forget')
    return sendJson(res, 200, await api.forgetUser(await readJsonBody(req)));
  const turn = /^\/api\/turn\/([^/]*)$/.exec(path);
  if (turn !== null && method === 'GET')
    return sendJson(res, 200, await api.turn(turn[1] ?? '', url.searchParams));
  if (path.startsWith('/api/')) {
    const known =
      [
        '/api/config',
        '/api/validate',
        '/api/replay',
        '/api/ask',
        '/api/chat',
        '/api/user/facts',
        '/api/user/forget',
      ].includes(path) || turn !== null;
    if (known) throw new HttpError(405, `${method} is not allowed on ${path}.`);
    throw new HttpError(404, `No API route ${method} ${path}.`);
  }
  if (method === 'GET' || method === 'HEAD') {
    const file = await staticFile(path);
    if (file !== undefined) return sendStatic(res, file);
  }
  throw new HttpError(404, `Not found: ${method} ${path}.`);
}
