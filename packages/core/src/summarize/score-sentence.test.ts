import { describe, expect, it } from 'vitest';
import { scoreSentence, TIER } from './score-sentence.ts';

const person = { person: true, names: new Set(['Lena', 'Porto', 'Braga']) };
const agent = { person: false, names: new Set(['Lena', 'Porto', 'Braga']) };

describe('scoreSentence', () => {
  it('never makes an error or a decision of a short exclamation', () => {
    for (const context of [person, agent]) {
      for (const s of [
        "Can't wait!",
        'Agreed.',
        'Totally agree!',
        "I can't believe it!",
        'Will do!',
      ]) {
        expect(scoreSentence(s, TIER.plain, context), s).toMatchObject({
          tier: TIER.plain,
          entities: 0,
        });
      }
    }
  });

  it('needs an error’s shape from a person, and error wording from an agent', () => {
    expect(scoreSentence('I failed my driving test.', TIER.plain, person).tier).toBe(TIER.plain);
    expect(scoreSentence('My laptop is broken.', TIER.plain, person).tier).toBe(TIER.plain);
    expect(scoreSentence('I get "TypeError: x is undefined".', TIER.plain, person).tier).toBe(
      TIER.error,
    );
    expect(scoreSentence('The checkout call returns HTTP 502.', TIER.plain, person).tier).toBe(
      TIER.error,
    );
    expect(scoreSentence('The deploy failed on staging.', TIER.plain, agent).tier).toBe(TIER.error);
    expect(scoreSentence("I can't open INV-55210 (403).", TIER.plain, agent).tier).toBe(TIER.error);
  });

  it('makes a decision of decision words, or of "will" and "must" about a name, date or id', () => {
    expect(scoreSentence('We decided to rent the flat.', TIER.plain, person).tier).toBe(
      TIER.decision,
    );
    expect(scoreSentence('Lena will call the landlord on Friday.', TIER.plain, person).tier).toBe(
      TIER.decision,
    );
    expect(scoreSentence('Your kindness will help people.', TIER.plain, person).tier).toBe(
      TIER.plain,
    );
    expect(scoreSentence('Shall we confirm Friday?', TIER.plain, agent).tier).toBe(TIER.plain);
  });

  it('ranks a personal fact above small talk of the same length', () => {
    const fact = scoreSentence('Next Saturday we drive to Braga with my sister.', 0, person);
    const talk = scoreSentence('That is such a lovely thing to hear from you.', 0, person);
    expect(fact.cues).toBeGreaterThanOrEqual(2);
    expect(fact.score).toBeGreaterThan(talk.score);
    expect(talk.score).toBe(0);
  });

  it('counts a capitalised first word as a name only when the conversation uses it as one', () => {
    expect(scoreSentence('Wow that is big.', 0, person).entities).toBe(0);
    expect(scoreSentence('Porto is lovely.', 0, person).entities).toBe(1);
    expect(scoreSentence('Nature is lovely.', 0, person).entities).toBe(0);
  });
});
