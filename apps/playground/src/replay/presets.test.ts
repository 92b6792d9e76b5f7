import { parseProfile } from '@mem/core';
import { describe, expect, it } from 'vitest';
import { seedExamples } from '../../../../packages/core/src/config/__fixtures__/seed-examples.ts';
import { PRESETS } from './presets.ts';

const SEEDS = {
  'short-term': '001 short-term memory',
  summarizer: '001 summarizer',
  neuralyzer: '001 neuralyzer',
  combined: '001 combined',
} as const;

describe('PRESETS', () => {
  it("are core's seed examples 001, verbatim, and valid profiles", () => {
    expect(PRESETS.map((p) => p.name)).toEqual(Object.keys(SEEDS));
    for (const preset of PRESETS) {
      const seed = seedExamples.find((e) => e.seed === SEEDS[preset.name])!;
      expect(preset.profile).toEqual(JSON.parse(seed.json));
      expect(() => parseProfile(preset.profile)).not.toThrow();
    }
  });
});
