import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Interaction } from '../../model/interaction.ts';
import { InteractionLog, isOpening } from '../../model/interaction-log.ts';
import type { CountedMessage, Message } from '../../model/message.ts';
import { promptProblems, sanitizeInteraction } from '../../model/prompt-validity.ts';
import { createTokenCounter, withTokenCount } from '../../tokens/token-counter.ts';
import { createMaxTokensStrategy, type MessageFilter } from './max-tokens-strategy.ts';
import { selectionMessages } from './short-term-strategy.ts';

const counter = createTokenCounter();
const word = fc.constantFrom('alpha', 'beta', 'gamma', 'Berlin', '42', 'refund', 'é', '🙂', 'x');
const text = fc.array(word, { minLength: 0, maxLength: 40 }).map((w) => w.join(' '));

/** One step of a turn, possibly malformed (a missing or orphan tool result), as stores may hold. */
const step = fc.oneof(
  { weight: 3, arbitrary: text.map((t) => ({ kind: 'text' as const, t })) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('tools' as const),
      calls: fc.array(
        fc.record({
          name: fc.constantFrom('search', 'sql', 'mail'),
          args: text,
          result: text,
          error: fc.boolean(),
        }),
        { minLength: 1, maxLength: 3 },
      ),
      dropResult: fc.integer({ min: 0, max: 9 }).map((n) => n < 2),
      note: fc.option(text, { nil: undefined }),
    }),
  },
  { weight: 1, arbitrary: text.map((t) => ({ kind: 'orphan' as const, t })) },
);
const turn = fc.record({
  user: text,
  steps: fc.array(step, { maxLength: 4 }),
  system: fc.option(text, { nil: undefined, freq: 10 }),
});
/** Turns, after an opening (assistant steps before the first user message) one time in three. */
const conversation = fc.record({
  opening: fc.oneof(
    { weight: 2, arbitrary: fc.constant([]) },
    { weight: 1, arbitrary: fc.array(step, { minLength: 1, maxLength: 3 }) },
  ),
  turns: fc.array(turn, { minLength: 0, maxLength: 30 }),
});

type Conversation = typeof conversation extends fc.Arbitrary<infer T> ? T : never;
type Step = Conversation['opening'][number];

function build({ opening, turns }: Conversation): CountedMessage[] {
  const out: Message[] = [];
  let id = 0;
  const at = () => ({ id: `m${++id}`, createdAt: id });
  const pushSteps = (steps: readonly Step[]) => {
    for (const s of steps) {
      if (s.kind === 'text') out.push({ ...at(), role: 'assistant', content: s.t });
      else if (s.kind === 'orphan')
        out.push({ ...at(), role: 'tool', toolCallId: `ghost${id}`, toolName: 'x', content: s.t });
      else {
        const calls = s.calls.map((c, i) => ({
          id: `c${id}_${i}`,
          name: c.name,
          arguments: JSON.stringify({ q: c.args }),
        }));
        out.push({ ...at(), role: 'assistant', content: s.note ?? '', toolCalls: calls });
        s.calls.forEach((c, i) => {
          if (s.dropResult && i === 0) return;
          out.push({
            ...at(),
            role: 'tool',
            toolCallId: calls[i]!.id,
            toolName: c.name,
            content: c.result,
            ...(c.error ? { isError: true } : {}),
          });
        });
      }
    }
  };
  pushSteps(opening);
  for (const t of turns) {
    if (t.system !== undefined)
      out.push({ ...at(), role: 'system', content: t.system.slice(0, 20) });
    out.push({ ...at(), role: 'user', content: t.user });
    pushSteps(t.steps);
  }
  return out.map((m) => withTokenCount(m, counter));
}

const noTools: MessageFilter = (m) => m.role !== 'tool';
const budgets = fc.oneof(
  fc.constant(-1),
  fc.integer({ min: 0, max: 400 }),
  fc.integer({ min: 0, max: 4000 }),
);

describe('max_tokens window (property-based)', () => {
  it('never exceeds the budget, never splits an interaction, always a valid prompt', () => {
    fc.assert(
      fc.property(conversation, budgets, fc.boolean(), (conv, budget, filtered) => {
        const messages = build(conv);
        const log = new InteractionLog(messages);
        // One interaction per human turn, plus the opening when the conversation has one.
        expect(log.interactions.length).toBe(conv.turns.length + (conv.opening.length > 0 ? 1 : 0));
        const strategy = createMaxTokensStrategy({
          maxTokens: budget,
          counter,
          ...(filtered ? { filter: noTools } : {}),
        });
        const selection = strategy.select(log);
        const sent = selectionMessages(selection);

        // Valid prompt: calls and results paired, first non-system message is a user message
        // or the conversation's opening (and an opening nowhere else).
        expect(promptProblems(sent, messages)).toEqual([]);
        expect(selection.interactions.slice(1).some(isOpening)).toBe(false);
        if (filtered)
          expect(sent.some((m) => m.role === 'tool' || (m.toolCalls?.length ?? 0) > 0)).toBe(false);

        // Reported tokens are the real cost of what is sent.
        const cost = sent.reduce((s, m) => s + m.tokenCount, counter.replyPrimingTokens);
        expect(selection.tokenCount).toBe(cost);
        for (const m of sent) expect(m.tokenCount).toBe(counter.countMessage(m));

        const systemCost = log.system.reduce(
          (s, m) => s + m.tokenCount,
          counter.replyPrimingTokens,
        );
        if (budget < 0) expect(selection.interactions).toEqual([]);
        else if (systemCost <= budget) expect(selection.tokenCount).toBeLessThanOrEqual(budget);

        // Whole interactions: a contiguous suffix of the shown turns; only the newest may be cut.
        const shown = log.interactions
          .map((i, n, all) => fullyShown(i, filtered ? noTools : undefined, n === all.length - 1))
          .filter((i) => i.messages.length > 0);
        const kept = selection.interactions;
        const suffix = shown.slice(shown.length - kept.length);
        kept.forEach((k, j) => {
          expect(k.index).toBe(suffix[j]!.index);
          const cut = selection.truncated && j === kept.length - 1;
          if (!cut)
            expect(k.messages.map((m) => m.id)).toEqual(suffix[j]!.messages.map((m) => m.id));
          else expect(k.messages[0]!.id).toBe(suffix[j]!.messages[0]!.id);
        });
        // Maximal: the next older shown interaction would not have fit.
        const older = shown[shown.length - kept.length - 1];
        if (budget >= 0 && older !== undefined && !selection.truncated && kept.length > 0) {
          expect(selection.tokenCount + older.tokenCount).toBeGreaterThan(budget);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('selects the same window incrementally as from scratch', () => {
    fc.assert(
      fc.property(conversation, fc.integer({ min: 0, max: 3000 }), (conv, budget) => {
        const messages = build(conv);
        const strategy = createMaxTokensStrategy({ maxTokens: budget, counter });
        const live = new InteractionLog();
        for (const m of messages) {
          live.append(m);
          strategy.select(live);
        }
        const fresh = createMaxTokensStrategy({ maxTokens: budget, counter }).select(
          new InteractionLog(messages),
        );
        expect(selectionMessages(strategy.select(live))).toEqual(selectionMessages(fresh));
      }),
      { numRuns: 150 },
    );
  });
});

function fullyShown(
  source: Interaction,
  filter: MessageFilter | undefined,
  isCurrent: boolean,
): Interaction {
  const kept = filter
    ? source.messages.filter((m) => filter(m, source, isCurrent))
    : source.messages;
  if (!isOpening(source) && kept[0]?.role !== 'user')
    return { ...source, messages: [], tokenCount: 0 };
  const tokenCount = kept.reduce((s, m) => s + m.tokenCount, 0);
  return sanitizeInteraction({ ...source, messages: kept, tokenCount }, (m) =>
    counter.countMessage(m),
  );
}
