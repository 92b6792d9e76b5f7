import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { StoredMessage, UserFact } from '../store/store-spec.ts';
import { applyFactOperations } from './fact-operations.ts';
import { createRuleFactExtractor } from './rule-extractor.ts';

/**
 * The rules extractor over the bundled support-desk conversation (examples/), one interaction at
 * a time as the engine runs it: a user message with the answers up to the next user message, the
 * facts so far passed in and the operations applied.
 */

interface ConversationFile {
  sessions: { id: string; messages: Omit<StoredMessage, 'seq' | 'tokenCount'>[] }[];
}

const file = new URL('../../examples/support-desk.conversation.json', import.meta.url);

async function replay(): Promise<UserFact[]> {
  const conversation = JSON.parse(readFileSync(file, 'utf8')) as ConversationFile;
  const extractor = createRuleFactExtractor();
  const signal = new AbortController().signal;
  let facts: UserFact[] = [];
  let n = 0;
  for (const session of conversation.sessions) {
    const messages: StoredMessage[] = session.messages.map((m, i) => ({
      ...m,
      seq: i + 1,
      tokenCount: 1,
    }));
    const interactions: StoredMessage[][] = [];
    for (const m of messages) {
      if (m.role === 'user') interactions.push([m]);
      else if (m.role !== 'system') interactions.at(-1)?.push(m);
    }
    for (const interaction of interactions) {
      const now = interaction[0]?.createdAt ?? 0;
      const ops = await extractor.extract(
        { userId: 'maren', sessionId: session.id, now, facts, messages: interaction },
        { signal },
      );
      facts = applyFactOperations(facts, ops, {
        sessionId: session.id,
        messageIds: interaction.map((m) => m.id),
        defaultSourceIds: interaction.filter((m) => m.role === 'user').map((m) => m.id),
        now,
        newId: () => String(++n),
      }).facts;
    }
  }
  return facts;
}

describe('rules fact extractor on a bundled conversation', () => {
  it("learns the customer's name and contact preference from the bundled support-desk conversation", async () => {
    const facts = await replay();
    const about = (key: string) => facts.filter((f) => f.about === key).map((f) => f.text);
    expect(about('name')).toEqual(['Name is Maren.']);
    expect(about('preference:contact')).toHaveLength(1);
    expect(about('preference:contact')[0]).toMatch(/email/);
    expect(about('preference:contact')[0]).toMatch(/not phone calls/);
    // The names of colleagues, carriers and customers in her messages are nobody's name here.
    expect(facts.filter((f) => /Tomasz|Jonas|Katarzyna|Ines|Pieter/.test(f.text))).toEqual([]);
  });
});
