import type { Message } from '@mem/core';
import { PRESETS } from '../replay/presets.ts';
import type { StoreKind } from '../replay/replay-types.ts';
import { readQuestion } from './ask-question.ts';
import { type ChatConfig, chatConfigFromEnv, publicChatConfig } from './chat-config.ts';
import { createChatModel } from './chat-model.ts';
import type {
  AskRequest,
  AskResponse,
  ChatRequest,
  ChatResponse,
  ConfigResponse,
  ForgetUserRequest,
  ForgetUserResponse,
  ReplayRequest,
  ReplayResponse,
  TurnResponse,
  Unchecked,
  UserFactsResponse,
  ValidateRequest,
  ValidateResponse,
} from './contract.ts';
import { createConversationCache, sessionRanges } from './conversations.ts';
import { HttpError } from './http-json.ts';
import { checkProfile } from './profile-check.ts';
import { readUser } from './read-user.ts';
import { DEFAULT_REPLAY_LIMITS, type ReplayLimits } from './replay-limits.ts';
import { createReplayRunner } from './replay-runner.ts';

export interface PlaygroundApiOptions {
  /** Offers the `redis` store when set. */
  redisUrl?: string;
  /** Where the chat's model settings are read (OPENAI_API_KEY, ANTHROPIC_API_KEY, ...). */
  env: NodeJS.ProcessEnv;
  /** Bounds of one replay (default `DEFAULT_REPLAY_LIMITS`). */
  limits?: Partial<ReplayLimits>;
  /** Where the replays' SQLite files are made (default: the OS's temp dir). */
  dataDir?: string;
}

/** The store a replay uses when the request names none: a real SQLite file, as in production. */
export const DEFAULT_STORE: StoreKind = 'sqlite';

const MAX_CHAT_MESSAGE = 20_000;
const DEFAULT_GENERATED_TURNS = 10_000;

/**
 * What the JSON routes do, apart from HTTP. Replays run in a worker thread (replay-runner.ts)
 * within `limits`; replays and chat turns run one at a time; a replay request that is overtaken
 * by a newer one, or whose client went away, while it waits is dropped without running. A
 * question (`ask`) is answered at once against the thread the last replay left, or refused with
 * 409 while a replay or chat turn is running or waiting: it never waits behind one.
 */
export function createPlaygroundApi(options: PlaygroundApiOptions) {
  const chat: ChatConfig = chatConfigFromEnv(options.env);
  const model = chat.enabled ? createChatModel(chat) : undefined;
  const conversations = createConversationCache();
  const limits: ReplayLimits = { ...DEFAULT_REPLAY_LIMITS, ...options.limits };
  const runner = createReplayRunner(limits, options.dataDir);
  const stores: StoreKind[] = ['sqlite', 'memory', ...(options.redisUrl ? ['redis' as const] : [])];
  let queue: Promise<unknown> = Promise.resolve();
  let latestReplay = 0;
  /** Replays and chat turns running or waiting in `queue`. */
  const busy = { replay: 0, chat: 0 };
  const counted = async <T>(kind: keyof typeof busy, task: () => Promise<T>): Promise<T> => {
    busy[kind]++;
    try {
      return await exclusive(task);
    } finally {
      busy[kind]--;
    }
  };

  /** Refuses at once with 409 while a replay or a chat turn runs or waits: never a wait behind one. */
  const refuseWhileBusy = (whileReplay: string, whileChat: string) => {
    if (busy.replay > 0) throw new HttpError(409, whileReplay, { busy: 'replay' });
    if (busy.chat > 0) throw new HttpError(409, whileChat, { busy: 'chat' });
  };

  const exclusive = <T>(task: () => Promise<T>): Promise<T> => {
    const run = queue.then(task, task);
    queue = run.catch(() => undefined);
    return run;
  };

  const pickConversation = (
    body: Unchecked<ReplayRequest>,
  ): { conversation: 'bundled' | 'generated'; turns: number } => {
    const which = body.conversation ?? 'bundled';
    if (which === 'bundled') return { conversation: 'bundled', turns: 0 };
    if (which !== 'generated') {
      throw new HttpError(
        400,
        `"conversation" must be "bundled" or "generated", got ${JSON.stringify(which)}.`,
      );
    }
    const turns = body.turns ?? DEFAULT_GENERATED_TURNS;
    if (!Number.isInteger(turns) || (turns as number) < 1 || (turns as number) > limits.maxTurns) {
      throw new HttpError(
        400,
        `"turns" must be an integer from 1 to ${limits.maxTurns} (the playground's limit per replay), got ${JSON.stringify(turns)}.`,
        { limit: 'turns', maxTurns: limits.maxTurns },
      );
    }
    return { conversation: 'generated', turns: turns as number };
  };

  return {
    async config(): Promise<ConfigResponse> {
      const bundled = await conversations.bundled();
      return {
        conversation: { title: bundled.title, sessions: sessionRanges(bundled) },
        presets: PRESETS,
        stores,
        defaultStore: DEFAULT_STORE,
        chat: publicChatConfig(chat),
      };
    },

    validate(body: Unchecked<ValidateRequest>): ValidateResponse {
      const check = checkProfile(body.profile);
      return check.ok ? { ok: true } : check;
    },

    /** @throws HttpError: 400 bad request or profile, 409 superseded, 422 past a limit, 499 client gone. */
    async replay(body: Unchecked<ReplayRequest>, signal: AbortSignal): Promise<ReplayResponse> {
      const check = checkProfile(body.profile);
      if (!check.ok) {
        throw new HttpError(400, 'The profile is invalid; fix the listed paths.', {
          issues: check.issues,
        });
      }
      const store = body.store ?? DEFAULT_STORE;
      if (!stores.includes(store as StoreKind)) {
        const hint =
          store === 'redis'
            ? ' Start the server with a Redis URL (--redis-url or MEM_REDIS_URL).'
            : '';
        throw new HttpError(
          400,
          `"store" must be one of ${stores.join(', ')}, got ${JSON.stringify(store)}.${hint}`,
        );
      }
      const conversation = pickConversation(body);
      const user = readUser(body.user, false);
      const seq = ++latestReplay;
      return counted('replay', async () => {
        if (seq !== latestReplay) throw new HttpError(409, 'Superseded by a newer replay request.');
        if (signal.aborted) throw new HttpError(499, 'The client went away before the replay ran.');
        return runner.replay<ReplayResponse>(
          {
            ...conversation,
            profile: check.profile,
            store: store as StoreKind,
            ...(options.redisUrl ? { redisUrl: options.redisUrl } : {}),
            ...(user === undefined ? {} : { userId: user }),
          },
          signal,
        );
      });
    },

    /**
     * The detail of one turn. With `historyLimit`, `history` is one page of it (the latest, the
     * one at `historyOffset`, or the one around the message `historyAround`) and `historyPage`
     * says where it is, so the page never downloads a 10,000-turn history at once.
     */
    turn(raw: string, query: URLSearchParams): Promise<TurnResponse> {
      if (!/^\d+$/.test(raw) || !Number.isSafeInteger(Number(raw))) {
        throw new HttpError(
          400,
          `The turn must be a non-negative integer, got ${JSON.stringify(raw)}.`,
        );
      }
      return runner.turn<TurnResponse>(Number(raw), query.toString());
    },

    /**
     * The context the next LLM call would get for `question`, after the last replay (and chat):
     * its messages with token counts, the knowledge hits, and the history messages it brings back.
     * @throws HttpError: 400 bad question (`field: "question"`), 409 no replay yet, or a replay
     * or chat turn in progress (`busy`).
     */
    async ask(body: Unchecked<AskRequest>): Promise<AskResponse> {
      const question = readQuestion(body);
      refuseWhileBusy(
        'A replay is in progress: ask again when it has finished (the question is asked against the memory it leaves).',
        'A chat turn is in progress: ask again when it has answered.',
      );
      return exclusive(() => runner.ask<AskResponse>(question));
    },

    /**
     * The facts of the last replay's user, read from the store (after the background fact
     * extraction): 409 before a replay, after one without a user, or while a replay or a chat
     * turn runs (`busy`).
     */
    async userFacts(): Promise<UserFactsResponse> {
      refuseWhileBusy(
        'A replay is in progress: read the facts when it has finished.',
        'A chat turn is in progress: read the facts when it has answered.',
      );
      return exclusive(() => runner.facts<UserFactsResponse>());
    },

    /**
     * Forgets the last replay's user (`engine.forgetUser`): every session, chunk and fact of the
     * user, with the counts. Questions and the chat then answer 409 until the next replay.
     * @throws HttpError: 400 bad `user` (`field: "user"`), 409 no replay with that user, or busy.
     */
    async forgetUser(body: Unchecked<ForgetUserRequest>): Promise<ForgetUserResponse> {
      const user = readUser(body.user, true)!;
      refuseWhileBusy(
        'A replay is in progress: forget the user when it has finished.',
        'A chat turn is in progress: forget the user when it has answered.',
      );
      return exclusive(() => runner.forget<ForgetUserResponse>(user));
    },

    async chat(body: Unchecked<ChatRequest>): Promise<ChatResponse> {
      if (model === undefined) throw new HttpError(409, chat.help, { help: chat.help });
      const message = body.message;
      if (typeof message !== 'string' || message.trim() === '') {
        throw new HttpError(400, '"message" must be a non-empty string.');
      }
      if (message.length > MAX_CHAT_MESSAGE) {
        throw new HttpError(400, `"message" is longer than ${MAX_CHAT_MESSAGE} characters.`);
      }
      return counted('chat', async () => {
        const context = await runner.beginTurn<Message[]>(message);
        let reply: string;
        try {
          reply = await model(context);
        } catch (error) {
          await runner.endTurn([]);
          throw new HttpError(502, `The model call failed: ${(error as Error).message}`);
        }
        const text = reply.trim() === '' ? '(the model sent an empty reply)' : reply;
        const ended = await runner.endTurn<Omit<ChatResponse, 'reply'>>([
          { role: 'assistant', content: text },
        ]);
        return { reply: text, ...ended };
      });
    },

    /** Stops the running replay, closes the memory thread and ends the worker. */
    async close() {
      latestReplay++;
      await runner.close();
      await queue;
    },
  };
}

export type PlaygroundApi = ReturnType<typeof createPlaygroundApi>;
