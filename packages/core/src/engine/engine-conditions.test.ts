import { describe, expect, it } from 'vitest';
import { parseProfile } from '../config/parse-profile.ts';
import type { MemConditionError } from '../errors/errors.ts';
import { groupInteractions } from '../model/interaction-log.ts';
import type { CountedMessage } from '../model/message.ts';
import { createInMemoryStore } from '../store/in-memory-store.ts';
import { TriggerCounter } from '../strategies/long-term/triggers.ts';
import { conditionFilter } from '../strategies/short-term/from-profile.ts';
import { createMemoryEngine } from './memory-engine.ts';

const huge = `${'lorem ipsum dolor sit amet '.repeat(40_000)}password`;

function windowWith(...conditions: string[]) {
  return {
    short_term_memory_strategy: [
      { memory_strategy_id: 'max_tokens', memory_max_tokens: 1_000_000, conditions },
    ],
  };
}

describe('engine conditions: a condition that cannot be decided does not hold', () => {
  it('a message over the matches() input cap is hidden, and later turns still get a prompt', async () => {
    expect(huge.length).toBeGreaterThan(1_000_000);
    const engine = createMemoryEngine({
      profile: windowWith("!message.content.matches('password')"),
      store: createInMemoryStore(),
    });
    const session = engine.session('s');
    await session.append([
      { role: 'user', content: huge },
      { role: 'assistant', content: 'that was long' },
    ]);
    const first = await session.context();
    expect(first.messages.map((m) => m.content)).not.toContain(huge);

    await session.append([
      { role: 'user', content: 'next question' },
      { role: 'assistant', content: 'next answer' },
    ]);
    await session.append({ role: 'user', content: 'and the password is?' });
    const later = await session.context();
    expect(later.messages.map((m) => m.content)).toEqual(['next question', 'next answer']);
    expect(later.messages.map((m) => m.content)).not.toContain(huge);
  });

  it('a condition on a missing metadata key does not hold for messages without the key', async () => {
    const engine = createMemoryEngine({ profile: windowWith('message.metadata.x == 1') });
    const session = engine.session('s');
    await session.append([
      { role: 'user', content: 'kept', metadata: { x: 1 } },
      { role: 'assistant', content: 'no key here' },
      { role: 'user', content: 'no key either' },
    ]);
    const context = await session.context();
    expect(context.messages.map((m) => m.content)).toEqual(['kept']);
  });

  it('has() guards a missing key as documented', async () => {
    const engine = createMemoryEngine({
      profile: windowWith('!has(message.metadata.x) || message.metadata.x != 1'),
    });
    const session = engine.session('s');
    await session.append([
      { role: 'user', content: 'hidden', metadata: { x: 1 } },
      { role: 'assistant', content: 'shown' },
      { role: 'user', content: 'shown too' },
    ]);
    const context = await session.context();
    expect(context.messages.map((m) => m.content)).toEqual(['shown too']);
  });

  it('division by zero in a condition hides the message instead of throwing', async () => {
    const engine = createMemoryEngine({
      profile: windowWith(
        "message.role == 'assistant' || 1 / (message.tokenCount - message.tokenCount) == 1",
      ),
    });
    const session = engine.session('s');
    await session.append([
      { role: 'user', content: 'question' },
      { role: 'assistant', content: 'answer' },
    ]);
    const context = await session.context();
    // The user message fails the condition, so its turn is not shown (a turn starts with it).
    expect(context.messages).toEqual([]);
  });

  it('reports a failing condition once per message as a condition:error event', async () => {
    const profile = {
      ...windowWith("message.role == 'assistant' || message.metadata.missing == 1"),
      long_term_memory_strategy: [
        {
          long_term_memory_id: 'neuralyzer',
          interaction_threshold_qty: 50,
          interaction_conditions: ['message.metadata.count / message.metadata.zero > 0'],
        },
      ],
    };
    const engine = createMemoryEngine({ profile });
    const events: Array<{ sessionId?: string; use: string; messageId?: string }> = [];
    engine.on('condition:error', (e) =>
      events.push({
        ...(e.sessionId === undefined ? {} : { sessionId: e.sessionId }),
        use: e.use,
        ...(e.error.messageId === undefined ? {} : { messageId: e.error.messageId }),
      }),
    );
    const session = engine.session('s');
    const [user] = await session.append({
      role: 'user',
      content: 'q',
      metadata: { count: 1, zero: 0 },
    });
    for (let i = 0; i < 3; i++) {
      await session.append({ role: 'assistant', content: `a${i}` }); // re-checks the open turn
      await session.context();
    }
    expect(events).toEqual([
      { sessionId: 's', use: 'trigger', messageId: user!.id },
      { use: 'window', messageId: user!.id },
    ]);
  });

  it('an interaction condition that fails at run time does not count toward a threshold', async () => {
    const profile = {
      short_term_memory_strategy: [{ memory_strategy_id: 'max_tokens', memory_max_tokens: 10_000 }],
      long_term_memory_strategy: [
        {
          long_term_memory_id: 'neuralyzer',
          interaction_threshold_qty: 1,
          interaction_keep: 0,
          interaction_conditions: ['message.metadata.count / message.metadata.zero > 0'],
        },
      ],
    };
    const engine = createMemoryEngine({ profile });
    const triggered: string[][] = [];
    engine.on('triggered', (e) => triggered.push(e.reasons));
    const session = engine.session('s');
    for (let i = 0; i < 3; i++) {
      await session.append([
        { role: 'user', content: `q${i}`, metadata: { count: 1, zero: 0 } },
        { role: 'assistant', content: `a${i}` },
      ]);
    }
    await engine.idle();
    const context = await session.context();
    expect(triggered).toEqual([]);
    expect(context.messages).toHaveLength(6);
  });

  it('every condition parseProfile accepts runs through context() without throwing', async () => {
    const conditions = [
      'message.metadata.x == 1',
      "message.metadata.tags.exists(t, t == 'a')",
      "message.metadata['a-b'] > 2.5",
      'int(message.metadata.n) / int(message.metadata.d) > 0',
      "message.content.matches('(a+)+$')",
      "size(message.content) < 10 || message.content.contains('x')",
      'message.metadata.s.matches(message.metadata.p)',
      'interaction.toolNames[5] == message.name',
    ];
    for (const condition of conditions) {
      const profile = parseProfile(windowWith(condition));
      const engine = createMemoryEngine({ profile });
      const session = engine.session('s');
      await session.append([
        { role: 'user', content: huge.slice(0, 300_000), metadata: { n: '1', d: '0', p: '(' } },
        { role: 'assistant', content: 'answer', metadata: { x: 'one', tags: [1, 2] } },
        { role: 'user', content: 'short' },
      ]);
      await expect(session.context(), condition).resolves.toBeDefined();
    }
  });
});

describe('engine conditions: failures are reported to the handler the engine passes', () => {
  const messages: CountedMessage[] = [
    { id: 'u1', role: 'user', content: 'q', createdAt: 0, tokenCount: 3 },
    { id: 'a1', role: 'assistant', content: 'a', createdAt: 1, tokenCount: 3, metadata: { x: 1 } },
  ];

  it('the short-term filter hides the message and reports the MemConditionError', () => {
    const profile = parseProfile(windowWith('message.metadata.x == 1'));
    const reported: MemConditionError[] = [];
    const filter = conditionFilter(profile.shortTerm[0]!.conditions, (e) => reported.push(e));
    const [interaction] = groupInteractions(messages).interactions;
    expect(messages.map((m) => filter!(m, interaction!, true))).toEqual([false, true]);
    expect(reported.map((e) => [e.code, e.messageId, e.path])).toEqual([
      ['MEM_CONDITION', 'u1', 'short_term_memory_strategy[0].conditions[0]'],
    ]);
  });

  it('the trigger counter leaves the interaction out and reports the MemConditionError', () => {
    const profile = parseProfile({
      long_term_memory_strategy: [
        {
          long_term_memory_id: 'neuralyzer',
          interaction_threshold_qty: 1,
          interaction_conditions: ['1 / (message.tokenCount - 3) == 0'],
        },
      ],
    });
    const entry = profile.longTerm[0]!;
    const reported: MemConditionError[] = [];
    const counter = new TriggerCounter(entry.config, entry.interactionConditions, (e) =>
      reported.push(e),
    );
    const { interactions } = groupInteractions([
      ...messages,
      ...messages.map((m) => ({ ...m, id: `${m.id}b` })),
    ]);
    expect(counter.reasons(interactions, 0, undefined, undefined)).toEqual([]);
    expect(reported.map((e) => e.messageId)).toEqual(['u1', 'u1b']);
    expect(reported[0]!.message).toContain('division by zero');
  });
});
