import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Message } from '../model/message.ts';
import { createTokenCounter } from '../tokens/token-counter.ts';
import {
  dialogue,
  LENA_AND_TOM,
  LENA_AND_TOM_CHIT_CHAT,
  LENA_AND_TOM_FACTS,
} from './__fixtures__/dialogue-conversation.ts';
import { extractiveSummary } from './extractive-summarizer.ts';
import { checkSummary } from './is-usable-summary.ts';
import { renderTranscript } from './render-transcript.ts';
import { parseSummary } from './summary-header.ts';

const counter = createTokenCounter();
const keyPoints = (summary: string) => summary.split('Key points:\n')[1]?.split('\n') ?? [];

describe('extractiveSummary of a dialogue between two people', () => {
  it('keeps facts, attributed to the speaker, and drops greetings, reactions and filler', () => {
    const summary = extractiveSummary(dialogue(LENA_AND_TOM), { targetTokens: 400, counter });
    const points = keyPoints(summary);
    expect(points).toEqual(LENA_AND_TOM_FACTS);
    for (const chitChat of LENA_AND_TOM_CHIT_CHAT) {
      expect(points.join('\n'), chitChat).not.toContain(chitChat);
    }
    // The header is the same as for any transcript.
    expect(summary.split('\n').slice(0, 4)).toEqual([
      '[Previous conversation summary]',
      '7 user messages',
      'First: "Hey Tom! How are you?"',
      'Last: "Totally agree, Tom."',
    ]);
  });

  it('gives a tight budget to facts, not to exclamations that read like errors or decisions', () => {
    const summary = extractiveSummary(dialogue(LENA_AND_TOM), { targetTokens: 90, counter });
    const points = keyPoints(summary);
    expect(points.length).toBeGreaterThan(0);
    for (const point of points) expect(LENA_AND_TOM_FACTS).toContain(point);
  });

  it('writes no error line for "can\'t", "failed" or "!" in chat, but keeps real errors', () => {
    const chat = dialogue([
      ['Lena', "Can't wait!!"],
      ['Tom', 'I failed my driving test again, third time.'],
      ['Lena', "Oh no! I can't believe it."],
      ['Tom', 'My laptop is broken, so no photos from Braga yet.'],
      ['Lena', 'The upload gave me "TypeError: file is undefined" at 21:40.'],
    ]);
    const summary = extractiveSummary(chat, { targetTokens: 72, counter });
    // Only the pasted error outranks the rest under a tight budget.
    expect(keyPoints(summary)[0]).toBe(
      '- Lena: The upload gave me "TypeError: file is undefined" at 21:40.',
    );
    expect(summary).not.toContain('encountered');
    expect(keyPoints(summary).join('\n')).not.toContain("Can't wait");
  });

  it('names users and assistants by role when they have no name', () => {
    const messages: Message[] = dialogue(LENA_AND_TOM).map(({ name: _, ...m }) => m);
    const summary = extractiveSummary(messages, { targetTokens: 400, counter });
    expect(summary).toContain(
      '- User: I moved to Porto in March and started a new job at a design studio.',
    );
    expect(summary).toContain('- Assistant: We adopted a dog called Biscuit last week!');
    expect(summary).not.toContain("Can't wait");
  });
});

describe('extractiveSummary folding an earlier summary of a dialogue', () => {
  const later = dialogue(
    [
      ['Lena', 'Hi again!'],
      ['Lena', 'Moved to Porto in March, did I tell you?'],
      ['Tom', 'Haha yes, you did!'],
      ['Tom', 'We adopted a dog called Biscuit last week!'],
      ['Tom', 'Biscuit starts puppy school on Tuesday at 10:00.'],
      ['Lena', 'Agreed, sounds great!'],
    ],
    100,
  );

  it('merges the earlier facts with the new ones, each once', () => {
    const first = extractiveSummary(dialogue(LENA_AND_TOM), { targetTokens: 400, counter });
    const second = extractiveSummary(later, {
      targetTokens: 400,
      counter,
      previousSummary: first,
    });
    const points = keyPoints(second);
    expect(points.filter((p) => p.includes('Porto'))).toEqual([LENA_AND_TOM_FACTS[0]]);
    expect(points.filter((p) => p.includes('adopted'))).toHaveLength(1);
    expect(points).toContain('- Tom: Biscuit starts puppy school on Tuesday at 10:00.');
    for (const fact of LENA_AND_TOM_FACTS) expect(points).toContain(fact);
    expect(new Set(points).size).toBe(points.length);
    expect(parseSummary(second).header?.userMessages).toBe(7 + 3);
  });

  it('drops chit-chat carried in an earlier summary (the older `User (name):` format too)', () => {
    const previousSummary = [
      '[Previous conversation summary]',
      '6 user messages',
      'First: "Hey Tom!"',
      'Last: "Totally agree, Tom."',
      'Key points:',
      '- User (Lena): Hey Tom!',
      '- Assistant (Tom): Wow, that agency looks great!',
      "- User (Lena): Can't wait.",
      '- User (Lena): Totally agree, Tom.',
      '- User (Lena): I moved to Porto in March and started a new job at a design studio.',
      '- Assistant (Tom): Thanks, Lena!',
    ].join('\n');
    const summary = extractiveSummary(later, { targetTokens: 400, counter, previousSummary });
    const points = keyPoints(summary);
    expect(points.filter((p) => p.includes('Porto'))).toEqual([LENA_AND_TOM_FACTS[0]]);
    for (const chitChat of ['Hey Tom', 'agency looks great', "Can't wait", 'Totally', 'Thanks']) {
      expect(points.join('\n'), chitChat).not.toContain(chitChat);
    }
  });

  it('stays the same when folded again with nothing new to say', () => {
    const first = extractiveSummary(dialogue(LENA_AND_TOM), { targetTokens: 400, counter });
    const again = extractiveSummary(dialogue([['Lena', 'Haha, bye!']], 200), {
      targetTokens: 400,
      counter,
      previousSummary: first,
    });
    expect(keyPoints(again)).toEqual(keyPoints(first));
  });
});

const SENTENCES = [
  ...LENA_AND_TOM.map(([, text]) => text),
  'Ok!',
  'Wow, Lena!',
  'Thanks, Tom! 😊',
  'We signed the lease for the flat on Rua das Flores on 2 May.',
  'Jonas and I go climbing every Thursday at 19:00.',
  'I hate coriander.',
  'The deploy failed with HTTP 502 and ECONNREFUSED.',
  '東京から大阪への新幹線を3月5日午前10時で予約した。',
  '',
];
const dialogues = fc
  .array(
    fc.record({
      speaker: fc.constantFrom('Lena', 'Tom'),
      text: fc.oneof(
        fc.constantFrom(...SENTENCES),
        fc.array(fc.constantFrom(...SENTENCES), { maxLength: 4 }).map((s) => s.join(' ')),
        fc.string({ unit: 'grapheme', maxLength: 120 }),
      ),
    }),
    { minLength: 1, maxLength: 40 },
  )
  .map((turns) => dialogue(turns.map((t) => [t.speaker, t.text] as const)));

describe('extractiveSummary of dialogues (property)', () => {
  it('is deterministic, within budget, grounded, and never repeats a key point', () => {
    fc.assert(
      fc.property(
        dialogues,
        fc.option(dialogues, { nil: undefined }),
        fc.integer({ min: 1, max: 800 }),
        (messages, before, targetTokens) => {
          const previous =
            before === undefined
              ? {}
              : { previousSummary: extractiveSummary(before, { targetTokens, counter }) };
          const summary = extractiveSummary(messages, { targetTokens, counter, ...previous });
          expect(
            extractiveSummary(structuredClone(messages), { targetTokens, counter, ...previous }),
          ).toBe(summary);
          expect(counter.countText(summary)).toBeLessThanOrEqual(Math.max(targetTokens, 64));
          const points = keyPoints(summary);
          expect(new Set(points).size).toBe(points.length);
          const check = checkSummary(summary, {
            source: renderTranscript(messages, previous),
            counter,
            originalTokens: Number.POSITIVE_INFINITY,
          });
          expect(check.usable ? 'usable' : check.reason).toBe('usable');
        },
      ),
      { numRuns: 200 },
    );
  });

  it('stays bounded on a huge message: every kept line is clipped', () => {
    const huge = `${'Haha, wow, Tom! I moved to Porto in March with my sister Ana. '.repeat(20_000)}${'x'.repeat(50_000)}`;
    const summary = extractiveSummary(dialogue([['Lena', huge]]), { targetTokens: 300, counter });
    expect(counter.countText(summary)).toBeLessThanOrEqual(300);
    expect(keyPoints(summary)).toContain('- Lena: I moved to Porto in March with my sister Ana.');
    for (const point of keyPoints(summary)) expect(point.length).toBeLessThanOrEqual(260);
  });
});

describe('extractiveSummary of the support-desk example (agent transcript)', () => {
  const desk = JSON.parse(
    readFileSync(new URL('../../examples/support-desk.conversation.json', import.meta.url), 'utf8'),
  ) as { sessions: { messages: Message[] }[] };
  const messages = desk.sessions.flatMap((s) => s.messages.filter((m) => m.role !== 'system'));

  it('keeps every failing tool call, names, ids and amounts', () => {
    const summary = extractiveSummary(messages, { targetTokens: 2000, counter });
    const errors = messages.filter((m) => m.isError);
    expect(parseSummary(summary).header?.errors).toBe(errors.length);
    for (const tool of new Set(errors.map((m) => m.toolName!))) {
      expect(summary).toMatch(new RegExp(`- ${tool}\\(.*\\) → error: `));
    }
    for (const fact of [
      'Tomasz Wójcik',
      'Jonas Albrecht',
      'Baltic Lane Carriers',
      'TCK-7731',
      'NH-CLM-3307',
      'EUR 3,650.00',
      'PU-6112',
      '24 March',
    ]) {
      expect(summary).toContain(fact);
    }
    // Sentences keep their role label; no error line comes from a sentence without an error.
    expect(summary).toContain('- User: ');
    expect(summary).toContain('- Assistant: ');
  });
});
