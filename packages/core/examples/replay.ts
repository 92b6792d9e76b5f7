/**
 * Replays the bundled conversation through a memory profile and shows, for each LLM call,
 * how much history exists and what the short-term window would send.
 *
 *   pnpm --filter @mem/core run example [conversation.json] [profile.json]
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createTokenCounter, type Message, messageText, parseProfile } from '@mem/core';
import { messageSchema } from '@mem/core/backend';
import {
  createShortTermStrategies,
  InteractionLog,
  selectionMessages,
  selectWindow,
  withTokenCount,
} from '@mem/core/strategies';
import { z } from 'zod';

const here = (name: string) => fileURLToPath(new URL(name, import.meta.url));
const conversationPath = process.argv[2] ?? here('conversation.json');
const profilePath = process.argv[3] ?? here('profile.json');

const file = z.object({ title: z.string().optional(), messages: z.array(messageSchema) });
const conversation = file.parse(JSON.parse(readFileSync(conversationPath, 'utf8')));
const profile = parseProfile(JSON.parse(readFileSync(profilePath, 'utf8')), {
  source: profilePath,
});
const counter = createTokenCounter({ model: 'gpt-4o' });
const strategies = createShortTermStrategies(profile, counter);

const log = new InteractionLog();
let historyTokens = 0;
const rows: string[] = [];
const callLlm = () => {
  const selection = selectWindow(log, strategies, counter.replyPrimingTokens);
  const sent = selectionMessages(selection);
  rows.push(
    [
      String(log.interactions.length).padStart(4),
      String(historyTokens).padStart(8),
      String(selection.tokenCount).padStart(7),
      String(sent.length).padStart(5),
      selection.truncated ? ' yes' : '  no',
    ].join('  '),
  );
  return sent;
};

let lastPrompt: Message[] = [];
for (const raw of conversation.messages as Message[]) {
  const message = withTokenCount(raw, counter);
  log.append(message);
  historyTokens += message.tokenCount;
  // The agent calls the LLM after each user message and after each tool result.
  if (message.role === 'user' || message.role === 'tool') lastPrompt = callLlm();
}

console.log(`${conversation.title ?? conversationPath}`);
console.log(`profile: ${JSON.stringify(profile.config.short_term_memory_strategy)}\n`);
console.log('turn  history  prompt  msgs  cut');
console.log(rows.join('\n'));
console.log('\nWhat the LLM sees on the last call:');
for (const m of lastPrompt) {
  const calls = m.toolCalls?.map((c) => ` -> ${c.name}(${c.arguments})`).join('') ?? '';
  console.log(
    `  [${m.role}${m.isError ? ' error' : ''}] (${m.tokenCount} tok) ${messageText(m).slice(0, 90)}${calls}`,
  );
}
