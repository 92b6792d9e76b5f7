import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { fmtUs, median, now, printTable } from '@mem/bench-kit';
import {
  CORPUS_FILES,
  type CorpusItem,
  type ItemScore,
  inputOf,
  kindGroup,
  languageGroup,
  loadFactCorpus,
  rates,
  scoreCorpus,
} from '../src/facts/__fixtures__/score-fact-corpus.ts';
import { createRuleFactExtractor } from '../src/facts/rule-extractor.ts';

/**
 * The rules fact extractor as a classifier (`pnpm bench -- --only=facts`): on its labelled
 * corpora (src/facts/__fixtures__), recall (expected facts found) and false-fact rate (messages
 * that produce a fact they do not state), per language and kind; the held-out sets were written
 * after tuning rounds. Cost: µs per corpus message, and per 1 MB or adversarial message (the extractor
 * reads the first 4,000 characters of each message).
 */

const extractor = createRuleFactExtractor();
const signal = new AbortController().signal;
const pct = (x: number) => `${(100 * x).toFixed(1)} %`;

function rows(scores: readonly ItemScore[], key: (s: ItemScore) => string, label: string) {
  const keys = [...new Set(scores.map(key))].sort();
  return keys.map((k) => {
    const mine = scores.filter((s) => key(s) === k);
    const r = rates(mine);
    return {
      [label]: k,
      messages: r.items,
      'facts expected': r.expected,
      recall: r.expected === 0 ? '-' : pct(r.recall),
      'with a false fact': `${r.itemsWithFalseFacts} (${pct(r.falseRate)})`,
    };
  });
}

async function usPerMessage(items: readonly CorpusItem[], rounds: number): Promise<number> {
  const inputs = items.map((i) => inputOf(i));
  for (let r = 0; r < 3; r++)
    for (const input of inputs) await extractor.extract(input, { signal });
  const samples: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const t0 = now();
    for (const input of inputs) await extractor.extract(input, { signal });
    samples.push(Number(now() - t0) / inputs.length / 1e3);
  }
  return median(samples);
}

async function usForText(text: string, reps: number): Promise<number> {
  const input = inputOf({ id: 'x', lang: 'en', kind: 'x', text, expect: [] });
  await extractor.extract(input, { signal });
  const samples: number[] = [];
  for (let r = 0; r < reps; r++) {
    const t0 = now();
    await extractor.extract(input, { signal });
    samples.push(Number(now() - t0) / 1e3);
  }
  return median(samples);
}

export async function runFactsBench(quick: boolean) {
  const sets: { name: string; items: CorpusItem[] }[] = [
    { name: 'tuning', items: loadFactCorpus(CORPUS_FILES.tuning) },
  ];
  for (const [name, file] of [
    ['held-out 1', CORPUS_FILES.heldout],
    ['held-out 2', CORPUS_FILES.heldout2],
    ['held-out 3', CORPUS_FILES.heldout3],
  ] as const) {
    if (existsSync(fileURLToPath(file))) sets.push({ name, items: loadFactCorpus(file) });
  }
  const summary: Record<string, unknown>[] = [];
  for (const set of sets) {
    const scores = await scoreCorpus(extractor, set.items);
    const byLangKind = (s: ItemScore) => `${languageGroup(s.item.lang)} ${kindGroup(s.item)}`;
    printTable(
      `Rules fact extractor, ${set.name} corpus: per language and kind`,
      rows(scores, byLangKind, 'language, kind'),
    );
    if (set.name === 'tuning') {
      printTable(
        `Rules fact extractor, ${set.name} corpus: per kind of message`,
        rows(scores, (s) => s.item.kind, 'kind'),
      );
    }
    const all = rates(scores);
    const negatives = rates(scores.filter((s) => kindGroup(s.item) === 'negative'));
    summary.push({
      set: set.name,
      messages: all.items,
      factsExpected: all.expected,
      recall: all.recall,
      falseRate: all.falseRate,
      negatives: negatives.items,
      negativeFalseRate: negatives.falseRate,
    });
  }
  printTable(
    'Rules fact extractor: recall and false-fact rate per corpus set',
    summary.map((s) => ({
      set: String(s.set),
      messages: Number(s.messages),
      'facts expected': Number(s.factsExpected),
      recall: pct(Number(s.recall)),
      'messages with a false fact': pct(Number(s.falseRate)),
      'negatives with a false fact': pct(Number(s.negativeFalseRate)),
    })),
  );

  const mb = 1 << 20;
  const reps = quick ? 20 : 100;
  const corpusUs = await usPerMessage(sets[0]?.items ?? [], quick ? 5 : 20);
  const cases: [string, string][] = [
    [
      '1 MB of prose with statements',
      'I live in Lisbon and I love hiking, my name is Ana. '.repeat(mb / 50),
    ],
    ['1 MB without a separator', 'a'.repeat(mb)],
    ['1 MB of commas', ', '.repeat(mb / 2)],
    ['1 MB of "remember that"', 'remember that '.repeat(mb / 14)],
    ['1 MB of "Hi, I am"', 'Hi, I am '.repeat(mb / 9)],
    ['1 MB of "and I live in"', 'and I live in '.repeat(mb / 14)],
    ['1 MB of "Hi Orla, Maren here,"', 'Hi Orla, Maren here, '.repeat(mb / 21)],
    ['1 MB of "always email me, never call,"', 'always email me, never call, '.repeat(mb / 29)],
    ['1 MB of unclosed quotes on lines', '“\n'.repeat(mb / 2)],
  ];
  const cost: Record<string, number> = { corpusMessage: corpusUs };
  const costRows = [
    {
      input: `corpus message (${sets[0]?.items.length ?? 0}, median of rounds)`,
      'µs per message': fmtUs(corpusUs),
    },
  ];
  for (const [label, text] of cases) {
    const us = await usForText(text, reps);
    cost[label] = us;
    costRows.push({ input: label, 'µs per message': fmtUs(us) });
  }
  printTable('Rules fact extractor: cost per message (first 4,000 characters read)', costRows);
  return { sets: summary, costUs: cost };
}
