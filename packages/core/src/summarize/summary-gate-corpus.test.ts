import { describe, expect, it } from 'vitest';
import {
  countBy,
  type GateCase,
  loadGateCorpus,
} from './__fixtures__/gate-corpus/load-gate-corpus.ts';
import { checkSummary } from './is-usable-summary.ts';
import { renderTranscript } from './render-transcript.ts';

/*
 * The summary gate as a classifier (SPEC §7), measured both ways on the committed corpus of
 * __fixtures__/gate-corpus: legitimate summaries wrongly rejected, and error or refusal texts
 * wrongly accepted. `pnpm bench -- --only=summary-gate` prints the same rates per language and
 * kind beside the gate before issue 23.
 */

const corpus = loadGateCorpus();
const usable = (c: GateCase<string>) => checkSummary(c.text, { source: c.transcript }).usable;
const ids = (cases: GateCase<string>[]) => cases.map((c) => `${c.id}: ${c.text.slice(0, 80)}`);

describe('the summary gate corpus', () => {
  it('holds at least 300 legitimate summaries over 10+ conversation languages, of every kind', () => {
    expect(corpus.legit.length).toBeGreaterThanOrEqual(300);
    const languages = countBy(corpus.legit, (c) => c.conversationLanguage);
    expect(Object.keys(languages).length).toBeGreaterThanOrEqual(10);
    const kinds = countBy(corpus.legit, (c) => c.kind);
    for (const kind of ['cross-language', 'terse', 'code-only', 'numbers-only', 'paraphrase']) {
      expect(kinds[kind] ?? 0, kind).toBeGreaterThanOrEqual(10);
    }
    expect(kinds.greetings ?? 0).toBeGreaterThanOrEqual(3);
    expect(kinds['apology-then-content'] ?? 0).toBeGreaterThanOrEqual(5);
    const cross = corpus.legit.filter((c) => c.language !== c.conversationLanguage);
    expect(cross.length).toBeGreaterThanOrEqual(60);
  });

  it('holds at least 150 error and refusal texts over 8+ languages, of every kind', () => {
    expect(corpus.errors.length).toBeGreaterThanOrEqual(150);
    expect(Object.keys(countBy(corpus.errors, (c) => c.language)).length).toBeGreaterThanOrEqual(8);
    const kinds = countBy(corpus.errors, (c) => c.kind);
    for (const kind of [
      'json-error',
      'html-page',
      'proxy-error',
      'quotes-conversation',
      'refusal-naming-id',
      'refusal',
      'error-message',
      'policy-block',
    ]) {
      expect(kinds[kind] ?? 0, kind).toBeGreaterThanOrEqual(4);
    }
  });
});

describe('the default summary gate on the corpus', () => {
  it('rejects at most 0.5% of the legitimate summaries', () => {
    const rejected = corpus.legit.filter((c) => !usable(c));
    expect(rejected.length / corpus.legit.length, ids(rejected).join('\n')).toBeLessThanOrEqual(
      0.005,
    );
  });

  it('accepts at most 2% of the error and refusal texts', () => {
    const accepted = corpus.errors.filter(usable);
    expect(accepted.length / corpus.errors.length, ids(accepted).join('\n')).toBeLessThanOrEqual(
      0.02,
    );
  });
});

const chat = (...lines: string[]) =>
  renderTranscript(
    lines.map((content, i) => ({
      id: `m${i}`,
      role: i % 2 === 0 ? ('user' as const) : ('assistant' as const),
      content,
      createdAt: i,
    })),
  );

describe('the cases of issue 23', () => {
  const refund = chat(
    'Order AF-1042 arrived broken, the mug handle snapped off.',
    'Sorry to hear that. I refunded 49 euros to your card.',
  );

  it('accepts an apology followed by content, and rejects an apology followed by a refusal', () => {
    const apology = "I'm sorry to hear order AF-1042 arrived broken; refund of 49 euros issued";
    expect(checkSummary(apology, { source: refund })).toEqual({ usable: true, text: apology });
    expect(checkSummary("I'm sorry, but I can't summarize this.", { source: refund }).usable).toBe(
      false,
    );
  });

  it('rejects errors that name or quote what the conversation holds', () => {
    for (const text of [
      'Your request about the refund for order AF-1042 was flagged by our safety system.',
      'Invalid request: messages[0].content "Order AF-1042 arrived broken, the mug handle snapped off." exceeds the maximum length.',
      'Es tut mir leid, aber ich kann die Unterhaltung zur Bestellung AF-1042 nicht zusammenfassen.',
      'Désolé, une erreur interne est survenue. Veuillez réessayer plus tard.',
    ]) {
      expect(checkSummary(text, { source: refund }), text).toMatchObject({
        usable: false,
        reason: 'looks like an error message or refusal',
      });
    }
  });

  it('takes an error phrase for a sign only when the conversation does not say it', () => {
    const quoted = chat(
      'Bei Bestellung BX-20417 kommt immer „Ein interner Fehler ist aufgetreten. Bitte versuchen Sie es später erneut.“',
      'Das lag an einem abgelaufenen Zertifikat; ich habe es erneuert.',
    );
    const summary =
      'Bei Bestellung BX-20417 kam „Ein interner Fehler ist aufgetreten. Bitte versuchen Sie es später erneut.“; das abgelaufene Zertifikat wurde erneuert.';
    expect(checkSummary(summary, { source: quoted }).usable).toBe(true);
    const unsaid = chat(
      'Wo bleibt Bestellung BX-20417?',
      'Sie liegt in Leipzig; Ersatz kommt bis Freitag.',
    );
    const error =
      'Ein interner Fehler ist aufgetreten (Bestellung BX-20417). Bitte versuchen Sie es später erneut.';
    expect(checkSummary(error, { source: unsaid })).toMatchObject({ usable: false });
  });

  it('accepts summaries in another language or script, compared by ids and numbers', () => {
    const cases: [string, string][] = [
      [
        chat('明日の会議を午前10時に変更できますか？', 'はい、明日10時に変更しました。'),
        "Tomorrow's meeting was moved to 10 a.m.",
      ],
      [
        chat('KTX 105편을 오후 열차로 바꿀 수 있나요?', 'KTX 137편으로 변경했습니다.'),
        'KTX 105 was changed to KTX 137.',
      ],
      [
        chat('אני רוצה לשנות את ההזמנה ל-IL-9900 ליום חמישי.', 'שיניתי את ההזמנה.'),
        'Booking IL-9900 was moved to Thursday.',
      ],
      [
        chat('Can we move the sync with Jonas to 10 a.m.?', 'Done, invite sent.'),
        'Das Meeting mit Jonas wurde auf 10 Uhr verschoben.',
      ],
    ];
    for (const [source, summary] of cases) {
      expect(checkSummary(summary, { source }), summary).toEqual({ usable: true, text: summary });
    }
  });

  it('passes a summary in another language with nothing to compare, not one naming ids the conversation lacks', () => {
    const source = chat(
      '明日の会議を午前に変更できますか？',
      'はい、変更しました。招待も送りました。',
    );
    const summary = 'The meeting was moved to the morning and invitations were resent.';
    expect(checkSummary(summary, { source })).toEqual({ usable: true, text: summary });
    expect(
      checkSummary('Quota exhausted for project 4411. Contact your administrator.', { source }),
    ).toMatchObject({ usable: false });
  });
});
