import { PRESETS } from '../replay/presets.ts';
import { type LiveReplay, replayKeepingSession } from '../replay/replay.ts';
import type { Conversation, StoreKind, TurnDetail, TurnSnapshot } from '../replay/replay-types.ts';
import { type ChatConfig, chatConfigFromEnv, publicChatConfig } from './chat-config.ts';
import { createChatModel } from './chat-model.ts';
import { createConversationCache, MAX_GENERATED_TURNS, sessionRanges } from './conversations.ts';
import { type HistoryPage, pageHistory } from './history-page.ts';
import { HttpError } from './http-json.ts';
import { checkProfile, configIssues } from './profile-check.ts';

export interface PlaygroundApiOptions {
  /** Offers the `redis` store when set. */
  redisUrl?: string;
  /** Where the chat's model settings are read (OPENAI_API_KEY, ANTHROPIC_API_KEY, ...). */
  env: NodeJS.ProcessEnv;
}

const MAX_CHAT_MESSAGE = 20_000;
const DEFAULT_GENERATED_TURNS = 10_000;

/**
 * What the JSON routes do, apart from HTTP. Replays and chat turns run one at a time; a replay
 * request that is overtaken by a newer one while it waits is answered 409 without running.
 */
export function createPlaygroundApi(options: PlaygroundApiOptions) {
  const chat: ChatConfig = chatConfigFromEnv(options.env);
  const model = chat.enabled ? createChatModel(chat) : undefined;
  const conversations = createConversationCache();
  const stores: StoreKind[] = ['memory', 'sqlite', ...(options.redisUrl ? ['redis' as const] : [])];
  let current: LiveReplay | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  let latestReplay = 0;

  const exclusive = <T>(task: () => Promise<T>): Promise<T> => {
    const run = queue.then(task, task);
    queue = run.catch(() => undefined);
    return run;
  };

  const pickConversation = async (body: Record<string, unknown>): Promise<Conversation> => {
    const which = body.conversation ?? 'bundled';
    if (which === 'bundled') return conversations.bundled();
    if (which !== 'generated') {
      throw new HttpError(
        400,
        `"conversation" must be "bundled" or "generated", got ${JSON.stringify(which)}.`,
      );
    }
    const turns = body.turns ?? DEFAULT_GENERATED_TURNS;
    if (
      !Number.isInteger(turns) ||
      (turns as number) < 1 ||
      (turns as number) > MAX_GENERATED_TURNS
    ) {
      throw new HttpError(
        400,
        `"turns" must be an integer from 1 to ${MAX_GENERATED_TURNS}, got ${JSON.stringify(turns)}.`,
      );
    }
    return conversations.generated(turns as number);
  };

  return {
    async config() {
      const bundled = await conversations.bundled();
      return {
        conversation: { title: bundled.title, sessions: sessionRanges(bundled) },
        presets: PRESETS,
        stores,
        chat: publicChatConfig(chat),
      };
    },

    validate(body: Record<string, unknown>) {
      const check = checkProfile(body.profile);
      return check.ok ? { ok: true as const } : check;
    },

    async replay(body: Record<string, unknown>) {
      const check = checkProfile(body.profile);
      if (!check.ok) {
        throw new HttpError(400, 'The profile is invalid; fix the listed paths.', {
          issues: check.issues,
        });
      }
      const store = body.store ?? 'memory';
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
      const conversation = await pickConversation(body);
      const seq = ++latestReplay;
      return exclusive(async () => {
        if (seq !== latestReplay) throw new HttpError(409, 'Superseded by a newer replay request.');
        await current?.live.close().catch(() => undefined);
        current = undefined;
        let next: LiveReplay;
        try {
          next = await replayKeepingSession({
            conversation,
            profile: check.profile,
            store: store as StoreKind,
            ...(options.redisUrl ? { redisUrl: options.redisUrl } : {}),
          });
        } catch (error) {
          const issues = configIssues(error);
          if (issues) throw new HttpError(400, 'The replay options are invalid.', { issues });
          throw error;
        }
        current = next;
        const { result } = next;
        const last = result.turns.length - 1;
        return {
          conversationTitle: result.conversationTitle,
          store: result.store,
          turns: result.turns,
          stats: result.stats,
          summaries: last >= 0 ? result.detail(last).summaries : [],
        };
      });
    },

    /**
     * The detail of one turn. With `historyLimit`, `history` is one page of it (the latest, the
     * one at `historyOffset`, or the one around the message `historyAround`) and `historyPage`
     * says where it is, so the page never downloads a 10,000-turn history at once.
     */
    turn(raw: string, query: URLSearchParams): TurnDetail & { historyPage?: HistoryPage } {
      if (!/^\d+$/.test(raw)) {
        throw new HttpError(
          400,
          `The turn must be a non-negative integer, got ${JSON.stringify(raw)}.`,
        );
      }
      if (current === undefined) throw new HttpError(404, 'No replay yet: POST /api/replay first.');
      const index = Number(raw);
      const count = current.live.turns.length;
      if (index >= count) {
        throw new HttpError(
          404,
          `Turn ${index} does not exist: the last replay has ${count} turns (0..${count - 1}).`,
        );
      }
      const detail = current.live.detail(index);
      return query.has('historyLimit') ? pageHistory(detail, query) : detail;
    },

    async chat(
      body: Record<string, unknown>,
    ): Promise<{ reply: string; turn: TurnSnapshot; detail: TurnDetail }> {
      if (model === undefined) throw new HttpError(409, chat.help, { help: chat.help });
      const message = body.message;
      if (typeof message !== 'string' || message.trim() === '') {
        throw new HttpError(400, '"message" must be a non-empty string.');
      }
      if (message.length > MAX_CHAT_MESSAGE) {
        throw new HttpError(400, `"message" is longer than ${MAX_CHAT_MESSAGE} characters.`);
      }
      return exclusive(async () => {
        if (current === undefined) {
          throw new HttpError(
            409,
            'No replay yet: POST /api/replay first; the chat continues its thread.',
          );
        }
        const { live } = current;
        const context = await live.beginTurn({ role: 'user', content: message }, { day: 'live' });
        let reply: string;
        try {
          reply = await model(context.messages);
        } catch (error) {
          await live.endTurn([]);
          throw new HttpError(502, `The model call failed: ${(error as Error).message}`);
        }
        const text = reply.trim() === '' ? '(the model sent an empty reply)' : reply;
        const { snapshot, detail } = await live.endTurn([{ role: 'assistant', content: text }]);
        return { reply: text, turn: snapshot, detail };
      });
    },

    /** Waits for the running replay or chat turn, then closes the open memory thread. */
    async close() {
      latestReplay++;
      await queue;
      await current?.live.close().catch(() => undefined);
    },
  };
}

export type PlaygroundApi = ReturnType<typeof createPlaygroundApi>;
