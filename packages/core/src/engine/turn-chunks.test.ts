import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitTextSpans } from '../knowledge/text-splitter.ts';
import { createTokenCounter } from '../tokens/token-counter.ts';
import { MAX_CHARS_PER_TOKEN, oneChunk } from './turn-chunks.ts';

const counter = createTokenCounter();

describe('oneChunk', () => {
  it('gives what the splitter gives for text of one chunk, and leaves longer text to it', () => {
    const piece = fc.oneof(
      fc.constantFrom('deploy', 'the', 'Lisbon', 'invoice', '42', '\n', '\n\n', '. ', ', '),
      fc.constantFrom('東京', '🙂', 'naïve', 'x'.repeat(40), '{"a":1}'),
      fc.string({ maxLength: 12 }),
    );
    const text = fc
      .array(piece, { minLength: 1, maxLength: 160 })
      .map((p) => p.join(' '))
      .filter((t) => t.length > 0);
    fc.assert(
      fc.property(text, fc.integer({ min: 16, max: 200 }), (t, chunkSize) => {
        const split = { chunkSize, chunkOverlap: Math.floor(chunkSize / 8), counter };
        const one = oneChunk(t, split);
        const spans = splitTextSpans(t, split).map(({ text, tokenCount }) => ({
          text,
          tokenCount,
        }));
        if (one !== undefined) expect(one).toEqual(spans);
        else if (t.length <= chunkSize * MAX_CHARS_PER_TOKEN)
          expect(spans.length).toBeGreaterThan(1);
      }),
      { numRuns: 400 },
    );
  });
});
