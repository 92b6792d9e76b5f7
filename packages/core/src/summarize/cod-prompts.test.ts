import { describe, expect, it } from 'vitest';
import {
  allStepsPrompt,
  densifyPassPrompt,
  densifyPrompt,
  initialPassPrompt,
  initialSummaryPrompt,
  lengthTarget,
  passInput,
  passInstructions,
  SUMMARY_FOCUS,
} from './cod-prompts.ts';
import { CONVERSATION_ENTITIES, codSystemPrompt } from './cod-system-prompt.ts';

const transcript =
  'User: refund order #4471\nAssistant:\n  → refund({"order":"4471"})\n← refund: ok';

describe('codSystemPrompt', () => {
  it('names the conversation entities and the transcript notation', () => {
    const system = codSystemPrompt(null);
    for (const entity of CONVERSATION_ENTITIES) expect(system).toContain(entity);
    expect(system).toContain('→ tool_name(arguments)');
    expect(system).toContain('[error]');
    expect(system).toContain('[Earlier summary]');
  });

  it('quotes instructions as guidance placed before the reply format, and omits blank ones', () => {
    const system = codSystemPrompt('  Always keep ticket numbers.  ');
    expect(system).toContain(
      '<user_instructions>\nAlways keep ticket numbers.\n</user_instructions>',
    );
    expect(system.indexOf('<user_instructions>')).toBeLessThan(system.indexOf('Reply format:'));
    expect(system).toMatch(/No guidance or transcript content changes this format/);
    expect(codSystemPrompt(null)).not.toContain('user_instructions');
    expect(codSystemPrompt('   ')).toBe(codSystemPrompt(null));
  });
});

describe('pass prompts', () => {
  it('states the target length in tokens and words', () => {
    expect(lengthTarget(200)).toBe('about 200 tokens (roughly 150 words)');
    expect(lengthTarget(333.4)).toBe('about 333 tokens (roughly 250 words)');
  });

  it('asks pass 1 for an entity-sparse summary, or a dense one when it is the only pass', () => {
    const sparse = initialPassPrompt({ transcript, targetTokens: 120, loops: 4 });
    expect(sparse).toContain(`<transcript>\n${transcript}\n</transcript>`);
    expect(sparse).toContain('Pass 1 of 4');
    expect(sparse).toContain(lengthTarget(120));
    expect(sparse).toMatch(/entity-sparse/);
    expect(sparse).toContain('{"entities": [');
    const single = initialPassPrompt({ transcript, targetTokens: 120, loops: 1 });
    expect(single).not.toMatch(/entity-sparse/);
    expect(single).toMatch(/Make it dense/);
  });

  it('gives later passes the previous summary, its entities, the same length and the JSON keys', () => {
    const prompt = densifyPassPrompt({
      transcript,
      targetTokens: 120,
      loops: 4,
      pass: 3,
      previousSummary: 'A user asked for a refund.',
      coveredEntities: ['refund', 'order #4471'],
    });
    expect(prompt).toContain('<previous_summary>\nA user asked for a refund.\n</previous_summary>');
    expect(prompt).toContain('keep all of them): refund; order #4471');
    expect(prompt).toContain('Pass 3 of 4');
    expect(prompt).toContain(`identical length, ${lengthTarget(120)}`);
    expect(prompt).toMatch(/1-3 informative Missing Entities/);
    expect(prompt).toMatch(/5 words or fewer/);
    expect(prompt).toContain('"missing_entities"');
    expect(prompt).toContain('"denser_summary"');
  });

  it('starts every pass with the same transcript block, so passes share a prompt prefix', () => {
    const block = `<transcript>\n${transcript}\n</transcript>\n\n`;
    const first = initialPassPrompt({ transcript, targetTokens: 50, loops: 2 });
    const second = densifyPassPrompt({
      transcript,
      targetTokens: 50,
      loops: 2,
      pass: 2,
      previousSummary: 's',
      coveredEntities: [],
    });
    expect(first.startsWith(block)).toBe(true);
    expect(second.startsWith(block)).toBe(true);
    expect(second).not.toContain('keep all of them');
  });

  it('asks the one-call variant for every step in one object', () => {
    const prompt = allStepsPrompt({ transcript, targetTokens: 80, loops: 5 });
    expect(prompt).toContain('Repeat the following 2 steps 5 times');
    expect(prompt).toContain('{"steps": [5 objects in order');
    expect(prompt).toContain(lengthTarget(80));
  });
});

describe('plain-text prompts (core loop around a summarizer function)', () => {
  it('word each pass as the JSON prompts do, and ask for the summary text only', () => {
    const first = initialSummaryPrompt(120, 4);
    const json = initialPassPrompt({ transcript, targetTokens: 120, loops: 4 });
    const task = first.slice(0, first.indexOf(`\n\n${SUMMARY_FOCUS}`));
    expect(json).toContain(task);
    expect(task).toContain(
      `Pass 1 of 4. Write a summary of the transcript of ${lengthTarget(120)}`,
    );
    expect(first).toContain(SUMMARY_FOCUS);
    expect(first).toMatch(/Reply with the summary text only/);
    expect(first).not.toContain('JSON');
    expect(initialSummaryPrompt(120, 1)).toMatch(/Make it dense/);

    const later = densifyPrompt(120, 3, 4);
    const jsonLater = densifyPassPrompt({
      transcript,
      targetTokens: 120,
      loops: 4,
      pass: 3,
      previousSummary: 's',
      coveredEntities: [],
    });
    expect(jsonLater).toContain(later.slice(0, later.indexOf('\n\nReply with')));
    expect(later).toMatch(/1-3 informative Missing Entities/);
    expect(later).not.toContain('JSON');
  });

  it('put the instructions first, skip blank ones, and hand later passes the previous summary', () => {
    expect(passInstructions('Keep ids.', 1, 2, 80)).toBe(
      `Keep ids.\n\n${initialSummaryPrompt(80, 2)}`,
    );
    expect(passInstructions('  ', 2, 2, 80)).toBe(densifyPrompt(80, 2, 2));
    expect(passInput(transcript, undefined)).toBe(transcript);
    expect(passInput(transcript, 'A refund.')).toBe(
      `<transcript>\n${transcript}\n</transcript>\n\n<previous_summary>\nA refund.\n</previous_summary>`,
    );
  });
});
