import Tokenizer from 'ai-tokenizer';
import * as claude from 'ai-tokenizer/encoding/claude';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '../model/message.ts';
import { aiTokenizerModels, referenceCount } from './__fixtures__/ai-tokenizer-reference.ts';
import { TEXT_KINDS, textsByKind } from './__fixtures__/texts-by-kind.ts';
import {
  CLAUDE_BASE_OVERHEAD_TOKENS,
  CLAUDE_CONTENT_MULTIPLIER,
  CLAUDE_PER_MESSAGE_TOKENS,
} from './claude-token-counter.ts';
import { createTokenCounter } from './token-counter.ts';

const counter = createTokenCounter({ model: 'claude-sonnet-4-5' });
const texts = textsByKind();
const prompt = (messages: readonly Message[]) =>
  messages.reduce((n, m) => n + counter.countMessage(m), counter.replyPrimingTokens);

beforeAll(() => counter.ready());

describe('Claude token counts', () => {
  it('use the overheads and multiplier of every Anthropic model in ai-tokenizer’s table', () => {
    const anthropic = Object.entries(aiTokenizerModels).filter(([id]) =>
      id.startsWith('anthropic/'),
    );
    expect(anthropic.length).toBeGreaterThan(5);
    for (const [, model] of anthropic) {
      expect(model.encoding).toBe('claude');
      expect(model.tokens).toMatchObject({
        contentMultiplier: CLAUDE_CONTENT_MULTIPLIER,
        perMessage: CLAUDE_PER_MESSAGE_TOKENS,
        baseOverhead: CLAUDE_BASE_OVERHEAD_TOKENS,
      });
    }
  });

  it.each(TEXT_KINDS)('equal ai-tokenizer’s count for Claude Sonnet 4.5 on %s', (kind) => {
    const messages = texts[kind];
    expect(messages.length).toBeGreaterThan(5);
    expect(prompt(messages)).toBe(referenceCount('anthropic/claude-sonnet-4.5', messages));
  });

  it('count markers like <EOT> as plain text, as the encoding spells them', () => {
    const raw = new Tokenizer(claude);
    const text = 'before <EOT> and <META_START>after';
    expect(counter.countText(text)).toBe(
      Math.round(raw.encode(text, [], []).length * CLAUDE_CONTENT_MULTIPLIER),
    );
    expect(() => raw.encode(text)).toThrow(/special token/);
  });

  it('stay within 2 % of ai-tokenizer on text without separators (cut into bounded pieces)', () => {
    const raw = new Tokenizer(claude);
    const cases = [
      '東京都庁に行きました'.repeat(300),
      '7'.repeat(3000),
      '3141592653589793238462643383279502884197'.repeat(60),
      'ACGTTGCAAGCT'.repeat(250),
    ];
    for (const text of cases) {
      const expected = Math.round(raw.encode(text, 'all').length * CLAUDE_CONTENT_MULTIPLIER);
      const got = counter.countText(text);
      expect(Math.abs(got - expected) / expected).toBeLessThanOrEqual(0.02);
    }
  });

  it('cannot count before ready(): a MemError saying to await it', async () => {
    const { execFile } = await import('node:child_process');
    const { promisify } = await import('node:util');
    const script = [
      "const { createTokenCounter } = await import('./src/index.ts');",
      "const c = createTokenCounter({ model: 'claude-3-5-haiku-20241022' });",
      "try { c.countText('hi'); console.log('counted'); }",
      'catch (e) { console.log(JSON.stringify({ code: e.code, message: e.message })); }',
    ].join('\n');
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      { cwd: new URL('../..', import.meta.url).pathname, timeout: 60_000 },
    );
    const result = JSON.parse(stdout.trim()) as { code: string; message: string };
    expect(result.code).toBe('MEM_TOKENIZER');
    expect(result.message).toContain('await counter.ready()');
  });
});
