import { createTokenCounter, fromOpenAIMessages, parseProfile, toOpenAIMessages } from '@mem/core';
import {
  createShortTermStrategies,
  InteractionLog,
  selectionMessages,
  selectWindow,
  withTokenCount,
} from '@mem/core/strategies';

// The engine's window, by hand: a profile, a token counter, a log of interactions, a selection.
const profile = parseProfile({
  short_term_memory_strategy: [
    {
      memory_strategy_id: 'max_tokens',
      memory_max_tokens: 60,
      // Hide tool traffic of earlier turns only: the current turn's calls and results stay.
      conditions: ["interaction.isCurrent || message.role != 'tool'"],
    },
  ],
});
const counter = createTokenCounter({ model: 'gpt-4o' });
const log = new InteractionLog(); // groups messages by human turn, O(1) per message
const history = fromOpenAIMessages([
  { role: 'user', content: 'Weather in Lisbon?' },
  {
    role: 'assistant',
    content: null,
    tool_calls: [
      {
        id: 'c1',
        type: 'function',
        function: { name: 'get_weather', arguments: '{"city":"Lisbon"}' },
      },
    ],
  },
  { role: 'tool', tool_call_id: 'c1', content: '18°C, sunny' },
  { role: 'assistant', content: '18°C and sunny.' },
  { role: 'user', content: 'And in Porto, tomorrow?' },
]);
for (const m of history) log.append(withTokenCount(m, counter)); // each message counted once

const strategies = createShortTermStrategies(profile, counter);
const selection = selectWindow(log, strategies, counter.replyPrimingTokens);
const prompt = toOpenAIMessages(selectionMessages(selection)); // no tool call without its result
console.log(JSON.stringify({ tokenCount: selection.tokenCount, prompt }));
