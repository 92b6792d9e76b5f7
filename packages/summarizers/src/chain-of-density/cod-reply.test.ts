import { summarySource } from '@mem/core/summarize';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ChatResponse } from '../chat-model.ts';
import {
  cleanSummary,
  parseDensifyReply,
  parseInitialReply,
  parseStepsReply,
} from './cod-reply.ts';
import { extractJsonObject } from './extract-json-object.ts';

const reply = (
  text: string,
  finishReason: ChatResponse['finishReason'] = 'stop',
): ChatResponse => ({
  text,
  finishReason,
  usage: { inputTokens: 10, outputTokens: 5 },
});

const dense = { missing_entities: ['order #4471'], denser_summary: 'Ana refunded order #4471.' };

function errorOf(result: { ok: boolean; error?: Error }): string {
  expect(result.ok).toBe(false);
  return result.error?.message ?? '';
}

describe('extractJsonObject', () => {
  it('reads a bare object, a ```json fence and an object between sentences', () => {
    const value = { a: 1, b: 'x' };
    const json = JSON.stringify(value);
    for (const text of [
      json,
      `\`\`\`json\n${json}\n\`\`\``,
      `\`\`\`\n${json}\n\`\`\``,
      `Here is the summary:\n${json}\nLet me know if you need more.`,
      `Sure! \`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\` Done.`,
    ]) {
      expect(extractJsonObject(text)).toEqual({ ok: true, value });
    }
  });

  it('skips braces in prose and keeps braces inside JSON strings', () => {
    const text = 'Note {this aside} first. {"summary": "uses {curly} and \\"quotes\\" }"} end {';
    expect(extractJsonObject(text)).toEqual({
      ok: true,
      value: { summary: 'uses {curly} and "quotes" }' },
    });
  });

  it('rejects empty replies, missing or broken JSON, arrays and two objects', () => {
    expect(errorOf(extractJsonObject('   '))).toBe('empty reply');
    expect(errorOf(extractJsonObject('I summarized it for you.'))).toMatch(/no JSON object/);
    expect(errorOf(extractJsonObject('{"summary": "cut off'))).toMatch(/invalid JSON/);
    expect(errorOf(extractJsonObject('{"summary": bare}'))).toMatch(/invalid JSON/);
    expect(errorOf(extractJsonObject('["a", "b"]'))).toMatch(/no JSON object/);
    expect(errorOf(extractJsonObject('{"a": 1}\n{"b": 2}'))).toMatch(/2 JSON objects/);
  });

  it('finds any object wrapped in brace-free prose and an optional fence', () => {
    const prose = fc.string().filter((s) => !/[{}"`]/.test(s));
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.jsonValue()),
        prose,
        prose,
        fc.boolean(),
        (value, before, after, fenced) => {
          const json = JSON.stringify(value);
          const body = fenced ? `\`\`\`json\n${json}\n\`\`\`` : json;
          const result = extractJsonObject(`${before}${body}${after}`);
          expect(result).toEqual({ ok: true, value: JSON.parse(json) });
        },
      ),
    );
  });
});

describe('parseInitialReply / parseDensifyReply', () => {
  it('parses pass 1 and later passes', () => {
    const first = parseInitialReply(reply('{"entities": ["Ana"], "summary": "  Ana asked. "}'));
    expect(first).toEqual({ ok: true, value: { summary: 'Ana asked.', entities: ['Ana'] } });
    expect(parseInitialReply(reply('{"summary": "No entity list."}'))).toEqual({
      ok: true,
      value: { summary: 'No entity list.', entities: [] },
    });
    expect(parseDensifyReply(reply(`\`\`\`json\n${JSON.stringify(dense)}\n\`\`\``))).toEqual({
      ok: true,
      value: { summary: 'Ana refunded order #4471.', entities: ['order #4471'] },
    });
  });

  it("accepts the paper's key spelling", () => {
    const text = '{"Missing_Entities": ["ticket T-9"], "Denser Summary": "Ticket T-9 is open."}';
    expect(parseDensifyReply(reply(text))).toEqual({
      ok: true,
      value: { summary: 'Ticket T-9 is open.', entities: ['ticket T-9'] },
    });
  });

  it('rejects schema mismatches with a readable reason and the zod error as cause', () => {
    const wrongKey = parseDensifyReply(reply('{"entities": [], "summary": "x"}'));
    expect(errorOf(wrongKey)).toMatch(/schema mismatch.*denser_summary/s);
    expect((wrongKey as { error: Error }).error.cause).toBeInstanceOf(Error);
    expect(errorOf(parseInitialReply(reply('{"summary": 42}')))).toMatch(/schema mismatch/);
    expect(
      errorOf(parseDensifyReply(reply('{"missing_entities": "Ana", "denser_summary": "x"}'))),
    ).toMatch(/missing_entities/);
  });

  it('rejects empty, bookkeeping-only and error-like summaries', () => {
    expect(errorOf(parseInitialReply(reply('{"summary": "   "}')))).toMatch(/empty/);
    const onlyBookkeeping = '{"missing_entities": ["x"], "denser_summary": "Missing entities: x"}';
    expect(errorOf(parseDensifyReply(reply(onlyBookkeeping)))).toMatch(/empty/);
    const refusal = '{"summary": "I\'m sorry, I cannot summarize this conversation."}';
    expect(errorOf(parseInitialReply(reply(refusal)))).toMatch(/error message or refusal/);
    const error = '{"summary": "Error: rate limit exceeded"}';
    expect(errorOf(parseInitialReply(reply(error)))).toMatch(/error message or refusal/);
  });

  it('with the transcript, rejects a summary that is not about it or adds an API key', () => {
    const source = summarySource(
      'User: Ana here, please refund order #4471.\nAssistant: Refunded order #4471 to Ana.',
    );
    const json = (summary: string) => reply(JSON.stringify({ entities: [], summary }));
    expect(parseInitialReply(json('Ana got order #4471 refunded.'), source).ok).toBe(true);
    for (const summary of ['fetch failed', 'Model overloaded, please retry later.']) {
      expect(errorOf(parseInitialReply(json(summary), source))).toMatch(/unusable/);
    }
    expect(
      errorOf(parseInitialReply(json('Ana: order #4471. sk-proj-Ab12****wXyZ'), source)),
    ).toMatch(/API key/);
    const steps = { steps: [dense, { missing_entities: [], denser_summary: 'Connection error.' }] };
    expect(errorOf(parseStepsReply(reply(JSON.stringify(steps)), source))).toMatch(/^step 2: /);
  });

  it('treats truncated and filtered replies as malformed even when they parse', () => {
    const valid = JSON.stringify(dense);
    expect(errorOf(parseDensifyReply(reply(valid, 'length')))).toMatch(/truncated/);
    expect(errorOf(parseDensifyReply(reply(valid, 'content-filter')))).toMatch(/content filter/);
    expect(parseDensifyReply(reply(valid, 'other')).ok).toBe(true);
  });
});

describe('parseStepsReply', () => {
  it('parses every step in order', () => {
    const steps = [
      { missing_entities: ['Ana'], denser_summary: 'Ana asked for help.' },
      { missing_entities: ['#4471'], denser_summary: 'Ana asked to refund #4471.' },
    ];
    expect(parseStepsReply(reply(JSON.stringify({ steps })))).toEqual({
      ok: true,
      value: [
        { summary: 'Ana asked for help.', entities: ['Ana'] },
        { summary: 'Ana asked to refund #4471.', entities: ['#4471'] },
      ],
    });
  });

  it('rejects an empty list and a step without a usable summary', () => {
    expect(errorOf(parseStepsReply(reply('{"steps": []}')))).toMatch(/schema mismatch/);
    const bad = { steps: [dense, { missing_entities: [], denser_summary: 'Sorry, I cannot.' }] };
    expect(errorOf(parseStepsReply(reply(JSON.stringify(bad))))).toMatch(/^step 2: /);
  });
});

describe('cleanSummary', () => {
  it('drops Missing entities lines and a Summary label, keeping the rest', () => {
    const text =
      '**Missing entities:** Ana; #4471\n\nDenser summary: Ana refunded #4471.\nShe left.';
    expect(cleanSummary(text)).toBe('Ana refunded #4471.\nShe left.');
    expect(cleanSummary('Summary of the refund: done.')).toBe('Summary of the refund: done.');
  });
});
