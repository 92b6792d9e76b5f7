import type { Message } from '../model/message.ts';

/** A small, fast, seedable PRNG (mulberry32) so generated conversations are reproducible. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  'deploy staging invoice customer Berlin Lisbon Tuesday budget latency cache index migration ' +
  'schema rollback alert ticket refund order warehouse shipment contract renewal meeting ' +
  'Priya Marco Chen Amara forecast quarter revenue incident postgres redis queue worker ' +
  'timeout retry webhook payload signature token quota region replica backup snapshot'
).split(' ');
const SYLLABLES = 'ka lo mi ne ru sa ti vo ze pa do fi gu he ja'.split(' ');

/**
 * Natural text follows Zipf's law: a few words are everywhere, most are rare. The vocabulary is
 * the domain words above (most frequent) followed by 4,000 made-up words, drawn with Zipf
 * weights, so lexical indexes and tokenizers see a realistic spread.
 */
const VOCABULARY: readonly string[] = [
  ...WORDS,
  ...Array.from({ length: 4000 }, (_, i) => {
    let word = '';
    for (let n = i + 15; n > 0; n = Math.floor(n / 15)) word += SYLLABLES[n % 15];
    return word;
  }),
];
const ZIPF_CUMULATIVE: readonly number[] = (() => {
  const out: number[] = [];
  let total = 0;
  for (let rank = 1; rank <= VOCABULARY.length; rank++) {
    total += 1 / rank;
    out.push(total);
  }
  return out.map((v) => v / total);
})();

function zipfWord(r: number): string {
  let lo = 0;
  let hi = ZIPF_CUMULATIVE.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ZIPF_CUMULATIVE[mid]! < r) lo = mid + 1;
    else hi = mid;
  }
  return VOCABULARY[lo]!;
}

const TOOLS = [
  'search_orders',
  'get_weather',
  'run_sql',
  'send_email',
  'read_file',
  'create_ticket',
];

export interface GenerateConversationOptions {
  /** Number of human turns. */
  interactions: number;
  seed?: number;
  /** Start of the first message, ms since epoch. Default 2026-01-05T09:00:00Z. */
  start?: number;
  /** Share of turns with a tool call (user, assistant call, tool result, assistant answer). Default 1. */
  toolCallRate?: number;
  /** Share of tool results that are errors. Default 0.1. */
  errorRate?: number;
  /** Words per message, [min, max]. Default [8, 40]. */
  words?: [number, number];
  /** Prefix of message ids. Default 'm'. */
  idPrefix?: string;
}

/**
 * A synthetic conversation with tool calls: every turn is a user message, then (at
 * `toolCallRate`) an assistant tool call and its result (an error at `errorRate`), then an
 * assistant answer — 4 messages per turn with tools. Deterministic for a given seed.
 */
export function generateConversation(options: GenerateConversationOptions): Message[] {
  const rand = seededRandom(options.seed ?? 1);
  const [minWords, maxWords] = options.words ?? [8, 40];
  const toolRate = options.toolCallRate ?? 1;
  const errorRate = options.errorRate ?? 0.1;
  const prefix = options.idPrefix ?? 'm';
  let clock = options.start ?? Date.UTC(2026, 0, 5, 9);
  let n = 0;
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
  const sentence = () => {
    const count = minWords + Math.floor(rand() * (maxWords - minWords + 1));
    const words: string[] = [];
    for (let i = 0; i < count; i++) words.push(zipfWord(rand()));
    if (rand() < 0.3) words.push(String(Math.floor(rand() * 100_000)));
    return `${words.join(' ')}.`;
  };
  const next = (message: Omit<Message, 'id' | 'createdAt'>): Message => {
    clock += 1000 + Math.floor(rand() * 60_000);
    return { id: `${prefix}${++n}`, createdAt: clock, ...message };
  };

  const out: Message[] = [];
  for (let turn = 0; turn < options.interactions; turn++) {
    out.push(next({ role: 'user', content: sentence() }));
    if (rand() < toolRate) {
      const tool = pick(TOOLS);
      const callId = `call_${turn}_${n + 1}`;
      const args = JSON.stringify({
        query: sentence().slice(0, 60),
        limit: 1 + Math.floor(rand() * 20),
      });
      out.push(
        next({
          role: 'assistant',
          content: '',
          toolCalls: [{ id: callId, name: tool, arguments: args }],
        }),
      );
      const failed = rand() < errorRate;
      out.push(
        next({
          role: 'tool',
          toolCallId: callId,
          toolName: tool,
          content: failed ? `Error: ${tool} failed: timeout after 30s` : sentence(),
          ...(failed ? { isError: true } : {}),
        }),
      );
    }
    out.push(next({ role: 'assistant', content: sentence() }));
  }
  return out;
}
