import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { appendPosting, createPosting, removeSlots } from './postings.ts';

describe('removeSlots', () => {
  it('drops exactly the dead slots, keeps order, lengths and an exact maxTf', () => {
    const entry = fc.record({
      gap: fc.integer({ min: 1, max: 5 }),
      tf: fc.integer({ min: 1, max: 6 }),
      length: fc.integer({ min: 1, max: 50 }),
    });
    fc.assert(
      fc.property(
        fc.array(entry, { maxLength: 80 }),
        fc.array(fc.integer({ min: 0, max: 450 }), { maxLength: 40 }),
        (entries, deadList) => {
          const posting = createPosting();
          let slot = 0;
          const all: Array<{ slot: number; tf: number; length: number }> = [];
          for (const e of entries) {
            slot += e.gap;
            appendPosting(posting, slot, e.tf, e.length);
            all.push({ slot, tf: e.tf, length: e.length });
          }
          const dead = new Set(deadList);
          removeSlots(posting, Int32Array.from(dead).sort());
          const kept = all.filter((e) => !dead.has(e.slot));
          const read = Array.from({ length: posting.size }, (_, i) => ({
            slot: posting.slots[i],
            tf: posting.tfs[i],
            length: posting.lengths[i],
          }));
          expect(read).toEqual(kept);
          expect(posting.maxTf).toBe(Math.max(0, ...kept.map((e) => e.tf)));
        },
      ),
      { numRuns: 500 },
    );
  });
});
