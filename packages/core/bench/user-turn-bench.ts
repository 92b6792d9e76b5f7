import {
  fmtUs,
  now,
  printTable,
  type BenchSummary as Summary,
  summarizeSamples,
} from '@mem/bench-kit';
import { createMemoryEngine, type MemorySession } from '../src/index.ts';
import type { Message } from '../src/model/message.ts';
import { generateConversation } from '../src/testing/generate-conversation.ts';
import { SUMMARIZER_PROFILE } from './engine-bench.ts';

/** Self-statements the rules extractor turns into facts, mixed into every fifth user message. */
const STATEMENTS = [
  'By the way, I live in Porto now.',
  'My name is Maren Holt.',
  'I work at Lindqvist Freight as a dispatcher.',
  'I prefer tea over coffee.',
  'Please remember that my gate code is on the fridge note.',
  'Actually, I moved to Lisbon last month.',
];

type Variant = 'no user' | 'user, facts off' | 'user, facts shown, not learnt' | 'user, facts on';

function turns(messages: readonly Message[]): Message[][] {
  const out: Message[][] = [];
  for (const m of messages) {
    if (m.role === 'user') out.push([m]);
    else out.at(-1)?.push(m);
  }
  return out;
}

/** The turns of a generated conversation, every fifth user message opening with a statement. */
function withStatements(all: Message[][]): Message[][] {
  return all.map((turn, i) =>
    i % 5 !== 0
      ? turn
      : turn.map((m, j) =>
          j === 0 && typeof m.content === 'string'
            ? { ...m, content: `${STATEMENTS[(i / 5) % STATEMENTS.length]} ${m.content}` }
            : m,
        ),
  );
}

class Run {
  readonly foreground: number[] = [];
  readonly background: number[] = [];
  factWrites = 0;
  private constructor(
    readonly variant: Variant,
    private readonly session: MemorySession,
    private readonly pending: Message[][],
  ) {}

  static async create(variant: Variant, history: number, measured: number): Promise<Run> {
    const profile =
      variant === 'user, facts off'
        ? { ...SUMMARIZER_PROFILE, user_facts: null }
        : variant === 'user, facts shown, not learnt'
          ? { ...SUMMARIZER_PROFILE, user_facts: { extraction: 'never' } }
          : SUMMARIZER_PROFILE;
    const engine = createMemoryEngine({ profile });
    if (variant === 'user, facts shown, not learnt') {
      // The facts the other variant learns, set once: the same block, no extraction.
      for (const [about, text] of [
        ['name', 'Name is Maren Holt.'],
        ['employer', 'Works at Lindqvist Freight.'],
        ['preference:tea', 'Prefers tea over coffee.'],
        ['remember:gate', 'Asked to remember: gate code is on the fridge note.'],
        ['location', 'Lives in Lisbon.'],
      ] as const) {
        await engine.user('bench-user').setFact({ about, text });
      }
    }
    const all = withStatements(
      turns(generateConversation({ interactions: history + measured, seed: 21 })),
    );
    const session = engine.session('bench', variant === 'no user' ? {} : { userId: 'bench-user' });
    for (const turn of all.slice(0, history)) {
      await session.append(turn);
      await session.idle();
    }
    const run = new Run(variant, session, all.slice(history));
    engine.on('facts:updated', () => run.factWrites++);
    return run;
  }

  /** Times `count` turns in the foreground (append + context), then the background apart. */
  async measure(count: number): Promise<void> {
    for (let i = 0; i < count; i++) {
      const turn = this.pending.shift()!;
      const t0 = now();
      await this.session.append(turn);
      await this.session.context();
      const t1 = now();
      await this.session.idle();
      this.foreground.push(Number(t1 - t0));
      this.background.push(Number(now() - t1));
    }
  }
}

export interface UserTurnResult {
  variant: Variant;
  foreground: Summary;
  background: Summary;
  factWrites: number;
}

/**
 * A warm turn (append one interaction, build the next context) of a session without a user, of
 * a user with facts off, of a user whose facts are shown but never learnt (the facts block read
 * on every context), and of a user with facts on (shown, and the rules extractor after every
 * interaction), in interleaved rounds on in-memory parts. "Shown, not learnt" vs "on" is what
 * learning facts adds to the foreground. The
 * background (indexing, compaction, fact extraction) is timed apart, after the foreground.
 */
export async function benchUserTurns(
  history: number,
  measured: number,
  rounds = 5,
): Promise<UserTurnResult[]> {
  const variants: Variant[] = [
    'no user',
    'user, facts off',
    'user, facts shown, not learnt',
    'user, facts on',
  ];
  const runs: Run[] = [];
  for (const v of variants) runs.push(await Run.create(v, history, measured));
  const perRound = Math.ceil(measured / rounds);
  for (let r = 0; r < rounds; r++) for (const run of runs) await run.measure(perRound);
  return runs.map((run) => ({
    variant: run.variant,
    foreground: summarizeSamples(run.foreground),
    background: summarizeSamples(run.background),
    factWrites: run.factWrites,
  }));
}

export function reportUserTurns(
  results: UserTurnResult[],
  history: number,
): Record<string, unknown> {
  const base = results[0]!;
  printTable(
    `User memory: a warm turn (append + context) on a session of ${history} interactions, in memory`,
    results.map((r) => ({
      session: r.variant,
      'median foreground': fmtUs(r.foreground.medianUs),
      'p90 foreground': fmtUs(r.foreground.p90Us),
      'vs no user': (r.foreground.medianUs / base.foreground.medianUs).toFixed(2),
      'median background': fmtUs(r.background.medianUs),
      'fact writes': r.factWrites,
    })),
  );
  return {
    history,
    results: results.map((r) => ({
      variant: r.variant,
      foreground: r.foreground,
      background: r.background,
      factWrites: r.factWrites,
      foregroundRatio: r.foreground.medianUs / base.foreground.medianUs,
    })),
  };
}
