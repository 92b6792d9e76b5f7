/**
 * The replay worker: runs replays and holds the replayed memory thread, off the server's request
 * thread (started by replay-runner.ts through replay-worker-boot.mjs). Requests are handled one
 * at a time, in order. A replay stops before its next turn once the server writes its number into
 * the shared `stop` cell.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { MemError, type MessageInput } from '@mem/core';
import { type LiveReplay, replayKeepingSession } from '../replay/replay.ts';
import type { ReplayStats, StoreKind } from '../replay/replay-types.ts';
import { NO_REPLAY_TO_ASK } from './ask-question.ts';
import type {
  ChatResponse,
  ForgetUserResponse,
  ReplayResponse,
  TurnResponse,
  UserFactsResponse,
} from './contract.ts';
import { createConversationCache } from './conversations.ts';
import { pageHistory } from './history-page.ts';
import { HttpError } from './http-json.ts';
import { configIssues } from './profile-check.ts';
import type { WorkerReply, WorkerRequest } from './replay-worker-protocol.ts';
import { forgetReplayedUser, forgottenError, readUserFacts } from './user-memory.ts';

const port = parentPort;
if (port === null)
  throw new Error('[mem/playground] replay-worker.ts runs as a worker thread only.');
const { stop: stopBuffer, tempRoot } = workerData as { stop: SharedArrayBuffer; tempRoot: string };
const stop = new Int32Array(stopBuffer);
const conversations = createConversationCache();
let current: LiveReplay | undefined;
/** The user of `current` was forgotten: questions and the chat wait for a new replay. */
let forgotten = false;
/** The replay's wall clock beyond its engine time (its stats' totalMs minus the engine's). */
let replayOverheadMs = 0;
let queue: Promise<unknown> = Promise.resolve();

/** Thrown by a replay asked to stop; the server says why (client gone, time limit). */
class ReplayStopped extends Error {
  constructor(
    readonly done: number,
    readonly total: number,
  ) {
    super(`stopped after ${done} of ${total} turns`);
  }
}

const handlers = {
  async replay(args: {
    seq: number;
    profile: unknown;
    store: StoreKind;
    redisUrl?: string;
    conversation: 'bundled' | 'generated';
    turns: number;
    userId?: string;
  }): Promise<ReplayResponse> {
    await current?.live.close().catch(() => undefined);
    current = undefined;
    forgotten = false;
    const conversation =
      args.conversation === 'bundled'
        ? await conversations.bundled()
        : conversations.generated(args.turns);
    const controller = new AbortController();
    let progress = { done: 0, total: 0 };
    const stopRequested = () => Atomics.load(stop, 0) === args.seq;
    if (stopRequested()) throw new ReplayStopped(0, 0);
    try {
      current = await replayKeepingSession({
        conversation,
        profile: args.profile,
        store: args.store,
        tempRoot,
        ...(args.redisUrl ? { redisUrl: args.redisUrl } : {}),
        ...(args.userId === undefined ? {} : { userId: args.userId }),
        signal: controller.signal,
        onProgress(done, total) {
          progress = { done, total };
          if (stopRequested()) controller.abort(new ReplayStopped(done, total));
        },
      });
    } catch (error) {
      const issues = configIssues(error);
      if (issues) throw new HttpError(400, 'The replay options are invalid.', { issues });
      if (controller.signal.aborted) throw new ReplayStopped(progress.done, progress.total);
      throw error;
    }
    const { result } = current;
    replayOverheadMs = result.stats.totalMs - current.live.stats().totalMs;
    const last = result.turns.length - 1;
    return {
      conversationTitle: result.conversationTitle,
      store: result.store,
      turns: result.turns,
      stats: result.stats,
      summaries: last >= 0 ? result.detail(last).summaries : [],
      ...(result.user === undefined ? {} : { user: result.user }),
    };
  },

  turn(args: { index: number; query: string }): TurnResponse {
    if (current === undefined) throw new HttpError(404, 'No replay yet: POST /api/replay first.');
    const count = current.live.turns.length;
    if (args.index >= count) {
      throw new HttpError(
        404,
        `Turn ${args.index} does not exist: the last replay has ${count} turns (0..${count - 1}).`,
      );
    }
    const detail = current.live.detail(args.index);
    const query = new URLSearchParams(args.query);
    return query.has('historyLimit') ? pageHistory(detail, query) : detail;
  },

  /** The context for a question after the last turn; nothing is stored. */
  async ask(args: { question: string }) {
    if (current === undefined) throw new HttpError(409, NO_REPLAY_TO_ASK);
    if (forgotten) throw forgottenError(current.live.userId ?? '');
    try {
      return await current.live.ask(args.question);
    } catch (error) {
      if (!MemError.isInstance(error)) throw error;
      throw new HttpError(400, `"question" was refused: ${error.message}`, { field: 'question' });
    }
  },

  async beginTurn(args: { message: string }) {
    if (current === undefined) {
      throw new HttpError(
        409,
        'No replay yet: POST /api/replay first; the chat continues its thread.',
      );
    }
    if (forgotten) throw forgottenError(current.live.userId ?? '');
    const context = await current.live.beginTurn(
      { role: 'user', content: args.message },
      { day: 'live' },
    );
    return context.messages;
  },

  async endTurn(args: { replies: MessageInput[] }): Promise<Omit<ChatResponse, 'reply'>> {
    if (current === undefined)
      throw new HttpError(409, 'The replay behind this chat was replaced.');
    const { snapshot, detail } = await current.live.endTurn(args.replies);
    return { turn: snapshot, detail, stats: threadStats(current) };
  },

  /** The facts of the last replay's user, read from the store now. */
  facts(): Promise<UserFactsResponse> {
    return readUserFacts(current?.live, forgotten);
  },

  /** Forgets the last replay's user; questions and the chat then need a new replay. */
  async forget(args: { user: string }): Promise<ForgetUserResponse> {
    const answer = await forgetReplayedUser(current?.live, args.user);
    forgotten = true;
    return answer;
  },

  async close() {
    await current?.live.close().catch(() => undefined);
    current = undefined;
  },
};

/**
 * The stats of the whole thread, the replay's turns and the chat's since, aggregated here once:
 * the page shows them as they are. Total time is the replay's wall clock plus the chat turns'
 * engine time (a model call is not memory work).
 */
function threadStats(replayed: LiveReplay): ReplayStats {
  const stats = replayed.live.stats();
  return { ...stats, totalMs: stats.totalMs + replayOverheadMs };
}

port.on('message', (request: WorkerRequest) => {
  const run = queue.then(async (): Promise<WorkerReply> => {
    try {
      const handler = handlers[request.op] as (args: unknown) => unknown;
      return { id: request.id, ok: true, value: await handler(request.args) };
    } catch (error) {
      return { id: request.id, ok: false, error: describe(error) };
    }
  });
  queue = run.then((reply) => {
    try {
      port.postMessage(reply);
    } catch (error) {
      port.postMessage({ id: request.id, ok: false, error: describe(error) });
    }
  });
});

function describe(error: unknown): Extract<WorkerReply, { ok: false }>['error'] {
  if (error instanceof ReplayStopped) {
    return { kind: 'stopped', message: error.message, done: error.done, total: error.total };
  }
  if (error instanceof HttpError) {
    return { kind: 'http', message: error.message, status: error.status, extra: error.extra };
  }
  const e = error instanceof Error ? error : new Error(String(error));
  return { kind: 'error', message: e.message, stack: e.stack ?? e.message };
}
