import { describe, expect, it } from 'vitest';
import { contentWords, stripChitChat } from './chit-chat.ts';

const speakers = new Set(['melanie', 'caroline', 'orla']);
const isSpeaker = (word: string) => {
  const w = word.toLowerCase();
  return [...speakers].some((name) => name.startsWith(w) && w.length >= 2);
};

describe('stripChitChat', () => {
  it('removes greetings, interjections and vocatives, and nothing else', () => {
    const cases: [string, string][] = [
      ['Hey Mel! I moved to Porto in March.', 'I moved to Porto in March.'],
      ['Haha, wow, that is Lisbon!', 'that is Lisbon!'],
      ['Thanks, Melanie!', ''],
      ["That's great, Mel!", "That's great!"],
      ['Morning Orla, Maren here.', 'Maren here.'],
      ['Caroline, I adopted a cat.', 'I adopted a cat.'],
      // A place after a comma is not a vocative; a word that is not an interjection stays.
      ['I moved to Porto, Portugal.', 'I moved to Porto, Portugal.'],
      ['Decision: I will open FIN-2291.', 'Decision: I will open FIN-2291.'],
      ['Great food at Casa Sá, by the way.', 'Great food at Casa Sá, by the way.'],
    ];
    for (const [sentence, stripped] of cases) {
      expect(stripChitChat(sentence, isSpeaker), sentence).toBe(stripped);
    }
  });
});

describe('contentWords', () => {
  it('counts no words in reactions and filler, and the words of a fact', () => {
    for (const filler of [
      "Can't wait!",
      'Sounds great',
      'Agreed.',
      'How are you?',
      "That sounds amazing, I'm so happy for you!",
      'Aww, hahaha, totally!',
    ]) {
      expect(contentWords(filler, isSpeaker), filler).toBe(0);
    }
    expect(contentWords('I moved to Porto in March.', isSpeaker)).toBe(3);
    expect(contentWords('Melanie adopted a dog', isSpeaker)).toBe(2);
  });
});
