import { describe, expect, it } from 'vitest';
import { parseProfile } from '../config/parse-profile.ts';
import { groupInteractions } from '../model/interaction-log.ts';
import type { Message } from '../model/message.ts';
import { TriggerCounter } from '../strategies/long-term/triggers.ts';
import { createTokenCounter, withTokenCount } from '../tokens/token-counter.ts';
import { createMemoryEngine } from './memory-engine.ts';

/** A profile whose window shows the messages `condition` holds for. */
const windowWith = (condition: string) => ({
  short_term_memory_strategy: [
    { memory_strategy_id: 'max_tokens', memory_max_tokens: 8000, conditions: [condition] },
  ],
});

const weatherCall = (id: string, city: string) => [
  {
    role: 'assistant' as const,
    content: '',
    toolCalls: [{ id, name: 'get_weather', arguments: JSON.stringify({ city }) }],
  },
  { role: 'tool' as const, content: `${city}: 18°C`, toolCallId: id, toolName: 'get_weather' },
];

const shown = (messages: readonly Message[]) =>
  messages.map((m) =>
    m.role === 'tool'
      ? `tool ${m.toolCallId}`
      : m.toolCalls
        ? `call ${m.toolCalls.map((c) => c.id).join(',')}`
        : `${m.role}: ${m.content as string}`,
  );

describe('hiding tool traffic of earlier turns only (interaction.isCurrent)', () => {
  it("`message.role != 'tool'` hides the current turn's call and result: the model would call again", async () => {
    const session = createMemoryEngine({ profile: windowWith("message.role != 'tool'") }).session(
      's',
    );
    await session.append([
      { role: 'user', content: 'Weather in Lisbon?' },
      ...weatherCall('c1', 'Lisbon'),
    ]);

    const { messages } = await session.context();
    expect(shown(messages)).toEqual(['user: Weather in Lisbon?']);
  });

  it("the recommended condition keeps the current turn's call and result and hides earlier ones", async () => {
    const session = createMemoryEngine({
      profile: windowWith("interaction.isCurrent || message.role != 'tool'"),
    }).session('s');
    await session.append([
      { role: 'user', content: 'Weather in Lisbon?' },
      ...weatherCall('c1', 'Lisbon'),
    ]);

    // Mid-turn, before the model answers: it sees its own call and the result.
    expect(shown((await session.context()).messages)).toEqual([
      'user: Weather in Lisbon?',
      'call c1',
      'tool c1',
    ]);

    await session.append({ role: 'assistant', content: '18°C and sunny.' });
    await session.append([
      { role: 'user', content: 'And in Porto?' },
      ...weatherCall('c2', 'Porto'),
    ]);

    // The Lisbon turn is now an earlier one: its tool traffic is hidden, Porto's is shown.
    expect(shown((await session.context()).messages)).toEqual([
      'user: Weather in Lisbon?',
      'assistant: 18°C and sunny.',
      'user: And in Porto?',
      'call c2',
      'tool c2',
    ]);
  });

  it('context({ next }) makes the next user message the current turn', async () => {
    const session = createMemoryEngine({
      profile: windowWith("interaction.isCurrent || message.role != 'tool'"),
    }).session('s');
    await session.append([
      { role: 'user', content: 'Weather in Lisbon?' },
      ...weatherCall('c1', 'Lisbon'),
      { role: 'assistant', content: '18°C and sunny.' },
    ]);
    expect(shown((await session.context()).messages)).toContain('tool c1');

    const { messages } = await session.context({ next: [{ role: 'user', content: 'Thanks!' }] });
    expect(shown(messages)).toEqual([
      'user: Weather in Lisbon?',
      'assistant: 18°C and sunny.',
      'user: Thanks!',
    ]);
  });
});

describe('interaction.isCurrent in interaction_conditions', () => {
  it('is true for the newest interaction only', () => {
    const profile = parseProfile({
      long_term_memory_strategy: [
        {
          long_term_memory_id: 'neuralyzer',
          interaction_threshold_qty: 1,
          interaction_conditions: ['!interaction.isCurrent'],
        },
      ],
    });
    const entry = profile.longTerm[0]!;
    const counter = new TriggerCounter(entry.config, entry.interactionConditions);
    const tokens = createTokenCounter();
    const turn = (n: number) =>
      [
        { id: `u${n}`, role: 'user' as const, content: `q${n}`, createdAt: n },
        { id: `a${n}`, role: 'assistant' as const, content: `a${n}`, createdAt: n },
      ].map((m) => withTokenCount(m, tokens));

    // Two turns: only the earlier one counts (1, not more than 1).
    const two = groupInteractions([...turn(1), ...turn(2)]).interactions;
    expect(counter.reasons(two, 0, undefined, undefined)).toEqual([]);
    // Three turns: the two earlier ones count.
    const three = groupInteractions([...turn(1), ...turn(2), ...turn(3)]).interactions;
    expect(counter.reasons(three, 0, undefined, undefined)).toEqual([
      'interaction_threshold_qty: 2 > 1',
    ]);
  });
});
