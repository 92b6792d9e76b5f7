import { describe, expect, it } from 'vitest';
import type { Message } from '../model/message.ts';
import { createTokenCounter } from '../tokens/token-counter.ts';
import { extractiveSummary } from './extractive-summarizer.ts';
import { checkSummary } from './is-usable-summary.ts';
import { renderTranscript } from './render-transcript.ts';
import { summarySource } from './summary-grounding.ts';

const conversation: Message[] = [
  {
    id: 'm1',
    createdAt: 1,
    role: 'user',
    content: "I can't log in to account AC-4471, it says my password is wrong.",
  },
  {
    id: 'm2',
    createdAt: 2,
    role: 'assistant',
    content: 'I reset the password for AC-4471 and sent a link to your email.',
  },
  { id: 'm3', createdAt: 3, role: 'user', content: 'Got it, thanks!' },
];
const source = summarySource(renderTranscript(conversation));
const verdict = (text: string) => checkSummary(text, { source }).usable;

describe('the default gate on replies written in the first or second person', () => {
  it('refuses a short first-person refusal even when it names the conversation’s id', () => {
    expect(verdict("I can't summarize the conversation about AC-4471.")).toBe(false);
    expect(verdict('Zu AC-4471 kann ich leider nichts zusammenfassen.')).toBe(false);
    expect(verdict('Извините, я не могу это сделать.')).toBe(false);
  });

  it('refuses a reply that shares nothing with the conversation and speaks to its reader', () => {
    expect(verdict("That's not something I'm able to do.")).toBe(false);
    expect(verdict('해당 내용은 답변드리기 어렵습니다.')).toBe(false);
  });

  it('keeps third-person summaries, a paraphrase with "later" in it, and quotes in the extractive format', () => {
    expect(verdict('Password for AC-4471 was reset; a link went to the user’s email.')).toBe(true);
    expect(verdict('A login problem was fixed by a reset, and a link arrived later.')).toBe(true);
    const extractive = extractiveSummary(conversation, {
      targetTokens: 200,
      counter: createTokenCounter(),
    });
    expect(verdict(extractive)).toBe(true);
  });
});
