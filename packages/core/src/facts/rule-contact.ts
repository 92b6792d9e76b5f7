import type { Candidate } from './rule-pattern.ts';
import type { Token } from './rule-text.ts';

/**
 * How someone wants to be contacted, from the directives of one sentence: `always email
 * me, never call`, `please don't call me, email is fine`, `text me rather than call`. One left-
 * to-right pass over the sentence's tokens; a channel verb counts only with `me` and nothing after
 * it in its clause (`text me the code` and `call me when you can` are requests, not preferences).
 */

type Channel = 'email' | 'text' | 'phone' | 'whatsapp';

const CHANNEL_VERBS: Record<string, Channel> = {
  email: 'email',
  'e-mail': 'email',
  mail: 'email',
  text: 'text',
  sms: 'text',
  message: 'text',
  whatsapp: 'whatsapp',
  call: 'phone',
  phone: 'phone',
  ring: 'phone',
};
/** A channel as a noun: `email is fine`, `no calls`, `not by phone`. */
const CHANNEL_NOUNS: Record<string, Channel> = {
  ...CHANNEL_VERBS,
  emails: 'email',
  texts: 'text',
  messages: 'text',
  calls: 'phone',
  calling: 'phone',
  'phone calls': 'phone',
  voicemail: 'phone',
  'phone call': 'phone',
  'video call': 'phone',
};
const CHANNEL_TEXT: Record<Channel, string> = {
  email: 'email',
  text: 'text messages',
  phone: 'phone calls',
  whatsapp: 'WhatsApp',
};
/** Words before a channel verb that make it a standing preference. */
const STANDING = new Set(['always', 'only', 'preferably', 'ideally']);
/** Words between `please` / `always` and the verb, skipped. */
const SOFTENERS = new Set(['please', 'pls', 'just', 'kindly', 'so', 'then', 'and', 'but']);
/** `email is fine/best`. */
const GOOD = new Set([
  'fine',
  'best',
  'better',
  'preferred',
  'easiest',
  'ok',
  'okay',
  'great',
  'perfect',
  'good',
]);
/** What may follow `<verb> me` and keep it a directive about the channel. */
const AFTER_ME = new Set(['please', 'instead', 'anymore', 'ever', 'again', 'only', 'first']);

type Lang = 'en' | 'de' | 'fr' | 'es' | 'pt';

interface Directive {
  lang?: Lang;
  channel: Channel;
  positive: boolean;
  /** `always email me`, `email is fine`, `rather than call`: a preference on its own. */
  standing: boolean;
}

const isEnd = (t: Token | undefined) => t === undefined || t.sep === true;
/** Own keys only (`constructor` is no channel). */
const lookup = <T>(table: Record<string, T>, key: string): T | undefined =>
  Object.hasOwn(table, key) ? table[key] : undefined;

/** `<verb> me` at `i` (end of its clause or an AFTER_ME word next); the index after `me`. */
function verbMe(tokens: readonly Token[], i: number): { channel: Channel; end: number } | null {
  let channel = lookup(CHANNEL_VERBS, tokens[i]?.norm ?? '');
  if (channel === undefined || tokens[i + 1]?.norm !== 'me') return null;
  let end = i + 2;
  // `message me on WhatsApp`, `reach me by email`
  const via = tokens[end]?.norm ?? '';
  const on = lookup(CHANNEL_NOUNS, tokens[end + 1]?.norm ?? '');
  if ((via === 'on' || via === 'by' || via === 'via') && on !== undefined) {
    channel = on;
    end += 2;
  }
  const next = tokens[end];
  if (!isEnd(next) && !AFTER_ME.has(next?.norm ?? '') && next?.norm !== 'rather') return null;
  return { channel, end };
}

function directivesAt(tokens: readonly Token[], start: number, out: Directive[]) {
  let i = start;
  let standing = false;
  for (let n = 0; n < 3 && i < tokens.length; n++) {
    const norm = (tokens[i] as Token).norm;
    if (STANDING.has(norm)) standing = true;
    else if (!SOFTENERS.has(norm)) break;
    i++;
  }
  const t = tokens[i];
  if (t === undefined) return;
  // `never call (me)`, `don't call me`, `do not ever text me`
  let neg = -1;
  if (t.norm === 'never') neg = i + 1;
  else if (t.norm === 'do' && tokens[i + 1]?.norm === 'not') neg = i + 2;
  if (neg !== -1) {
    let ever = t.norm === 'never';
    if (tokens[neg]?.norm === 'ever') {
      neg++;
      ever = true;
    }
    const channel = lookup(CHANNEL_VERBS, tokens[neg]?.norm ?? '');
    if (channel === undefined) return;
    const me = tokens[neg + 1]?.norm === 'me';
    const after = tokens[neg + (me ? 2 : 1)];
    if (!isEnd(after) && !AFTER_ME.has(after?.norm ?? '')) return;
    // `don't text me, I'm driving` is for now; `never call me`, `don't call me anymore` stand.
    const lasting =
      ever || (after !== undefined && AFTER_ME.has(after.norm) && after.norm !== 'please');
    out.push({ channel, positive: false, standing: me && lasting });
    return;
  }
  // `no calls (please)`
  if (t.norm === 'no') {
    const two = `${tokens[i + 1]?.norm ?? ''} ${tokens[i + 2]?.norm ?? ''}`;
    const channel = lookup(CHANNEL_NOUNS, two) ?? lookup(CHANNEL_NOUNS, tokens[i + 1]?.norm ?? '');
    const after = tokens[i + (lookup(CHANNEL_NOUNS, two) !== undefined ? 3 : 2)];
    if (channel !== undefined && (isEnd(after) || after?.norm === 'please')) {
      out.push({ channel, positive: false, standing: false });
    }
    return;
  }
  // `email is fine`, `a text is better`, `email is best for me`, `email only`
  if ((t.norm === 'a' || t.norm === 'an') && lookup(CHANNEL_NOUNS, tokens[i + 1]?.norm ?? '')) {
    i++;
  }
  const noun = lookup(CHANNEL_NOUNS, (tokens[i] as Token).norm);
  if (noun !== undefined && tokens[i + 1]?.norm === 'only' && isEnd(tokens[i + 2])) {
    out.push({ channel: noun, positive: true, standing: true });
    return;
  }
  if (noun !== undefined && tokens[i + 1]?.norm === 'is' && GOOD.has(tokens[i + 2]?.norm ?? '')) {
    out.push({ channel: noun, positive: true, standing: tokens[i + 3]?.norm === 'for' });
    return;
  }
  const v = verbMe(tokens, i);
  if (v === null) return;
  let end = v.end;
  out.push({ channel: v.channel, positive: true, standing });
  // `text me rather than call`, `email me instead of calling`
  if (tokens[end]?.norm === 'rather' && tokens[end + 1]?.norm === 'than') end += 2;
  else if (tokens[end]?.norm === 'instead' && tokens[end + 1]?.norm === 'of') end += 2;
  else return;
  const other = lookup(CHANNEL_NOUNS, tokens[end]?.norm ?? '');
  if (other !== undefined && other !== v.channel) {
    out.push({ channel: other, positive: false, standing: true });
    (out.at(-2) as Directive).standing = true;
  }
}

/**
 * German, French, Spanish and Portuguese: `ruf mich nicht an`, `ne m'appelez pas`, `no me
 * llames`, `não me ligue` (no calls); a verb of sending to me and a channel at the end of its
 * clause (`schreib mir lieber eine E-Mail`, `envoyez-moi plutôt un e-mail`, `mándame un correo`,
 * `me manda uma mensagem`); `nur per E-Mail`, `uniquement par e-mail`, `solo por correo`.
 */
const w = (s: string) => new Set(s.split(' '));
const NO_CALLS: { lang: Lang; seq: ReadonlySet<string>[] }[] = [
  { lang: 'de', seq: [w('ruf rufen'), w('mich'), w('nicht'), w('an')] },
  { lang: 'de', seq: [w('rufen'), w('sie'), w('mich'), w('nicht'), w('an')] },
  { lang: 'de', seq: [w('keine'), w('anrufe')] },
  { lang: 'fr', seq: [w('ne'), w('me'), w('appelez appelle appelles téléphonez téléphone')] },
  { lang: 'fr', seq: [w('pas'), w('de'), w('appels')] },
  { lang: 'es', seq: [w('no'), w('me'), w('llames llame llaméis telefonees')] },
  { lang: 'es', seq: [w('nada sin'), w('de llamadas'), w('llamadas')] },
  { lang: 'pt', seq: [w('não'), w('me'), w('ligue liga ligues telefone')] },
  { lang: 'pt', seq: [w('nada sem'), w('de ligações'), w('ligações')] },
];
const SEND_TO_ME: { lang: Lang; seq: ReadonlySet<string>[] }[] = [
  {
    lang: 'de',
    seq: [w('schreib schreibe schreiben schick schicke schicken sende senden'), w('mir')],
  },
  { lang: 'de', seq: [w('schreiben schicken senden'), w('sie'), w('mir')] },
  { lang: 'fr', seq: [w('envoyez envoie écrivez écris'), w('moi')] },
  { lang: 'es', seq: [w('escríbeme mándame envíame escríbame mándeme envíeme')] },
  { lang: 'pt', seq: [w('me'), w('manda mande envie escreva mandem')] },
  { lang: 'pt', seq: [w('manda mande envie escreva'), w('me')] },
];
/** `nur per E-Mail`: a standing channel. */
const ONLY_BY: { lang: Lang; seq: ReadonlySet<string>[] }[] = [
  { lang: 'de', seq: [w('nur lieber immer bitte'), w('per über')] },
  { lang: 'fr', seq: [w('uniquement seulement plutôt toujours'), w('par')] },
  { lang: 'es', seq: [w('solo sólo mejor siempre'), w('por')] },
  { lang: 'pt', seq: [w('só somente apenas sempre melhor'), w('por')] },
];
const ML_CHANNELS: Record<string, Channel> = {
  'e-mail': 'email',
  email: 'email',
  mail: 'email',
  mails: 'email',
  courriel: 'email',
  correo: 'email',
  sms: 'text',
  nachricht: 'text',
  texto: 'text',
  message: 'text',
  mensaje: 'text',
  mensagem: 'text',
  whatsapp: 'whatsapp',
  telefon: 'phone',
  téléphone: 'phone',
  teléfono: 'phone',
  telefone: 'phone',
};
/** Between the verb and the channel: `lieber eine`, `plutôt un`, `mejor por`. */
const ML_FILLERS = w(
  'bitte lieber einfach eher immer eine ein einen per plutôt un une par toujours mejor un una por siempre um uma por sempre melhor',
);
const ML_STANDING = w(
  'lieber immer nur plutôt toujours uniquement seulement mejor siempre solo sólo sempre só somente apenas melhor',
);
const ML_TAIL = w('bitte please svp merci gracias obrigado obrigada danke');

function seqAt(tokens: readonly Token[], i: number, seq: readonly ReadonlySet<string>[]): number {
  let j = i;
  for (const want of seq) {
    if (tokens[j] === undefined || !want.has((tokens[j] as Token).norm)) return -1;
    j++;
  }
  return j;
}

/** A channel at `i` after fillers, ending its clause: the channel and whether a filler stood. */
function channelEnding(tokens: readonly Token[], i: number) {
  let j = i;
  let standing = false;
  for (let n = 0; n < 3 && ML_FILLERS.has(tokens[j]?.norm ?? ''); n++, j++) {
    if (ML_STANDING.has((tokens[j] as Token).norm)) standing = true;
  }
  const channel = lookup(ML_CHANNELS, tokens[j]?.norm ?? '');
  if (channel === undefined) return undefined;
  j++;
  while (ML_TAIL.has(tokens[j]?.norm ?? '')) j++;
  return isEnd(tokens[j]) ? { channel, standing } : undefined;
}

function otherDirectivesAt(tokens: readonly Token[], start: number, out: Directive[]) {
  let i = start;
  while (ML_TAIL.has(tokens[i]?.norm ?? '') || tokens[i]?.norm === 'por') {
    if (tokens[i]?.norm === 'por' && tokens[i + 1]?.norm !== 'favor') break;
    i += tokens[i]?.norm === 'por' ? 2 : 1;
  }
  for (const r of NO_CALLS) {
    const end = seqAt(tokens, i, r.seq);
    if (end === -1) continue;
    // `ne m'appelez pas`, `ruf mich nicht an`; `no me llames ahora` is for now.
    let k = end;
    if (tokens[k]?.norm === 'pas') k++;
    while (ML_TAIL.has(tokens[k]?.norm ?? '')) k++;
    if (!isEnd(tokens[k]) && !ML_STANDING.has(tokens[k]?.norm ?? '')) return;
    out.push({ lang: r.lang, channel: 'phone', positive: false, standing: false });
    return;
  }
  for (const r of SEND_TO_ME) {
    const end = seqAt(tokens, i, r.seq);
    if (end === -1) continue;
    const c = channelEnding(tokens, end);
    if (c !== undefined)
      out.push({ lang: r.lang, channel: c.channel, positive: true, standing: c.standing });
    return;
  }
  for (const r of ONLY_BY) {
    const end = seqAt(tokens, i, r.seq);
    if (end === -1) continue;
    const c = channelEnding(tokens, end);
    if (c !== undefined)
      out.push({ lang: r.lang, channel: c.channel, positive: true, standing: true });
    return;
  }
}

const CHANNEL_WORDS: Record<Exclude<Lang, 'en'>, Record<Channel, string>> = {
  de: { email: 'E-Mail', text: 'SMS', phone: 'Telefon', whatsapp: 'WhatsApp' },
  fr: { email: 'e-mail', text: 'SMS', phone: 'téléphone', whatsapp: 'WhatsApp' },
  es: { email: 'correo', text: 'mensaje', phone: 'teléfono', whatsapp: 'WhatsApp' },
  pt: { email: 'e-mail', text: 'mensagem', phone: 'telefone', whatsapp: 'WhatsApp' },
};
const CONTACT_TEXT: Record<
  Exclude<Lang, 'en'>,
  { both: (a: string, b: string) => string; pos: (a: string) => string; neg: (b: string) => string }
> = {
  de: {
    both: (a, b) => `Möchte per ${a} kontaktiert werden, nicht per ${b}.`,
    pos: (a) => `Möchte per ${a} kontaktiert werden.`,
    neg: (b) => `Möchte nicht per ${b} kontaktiert werden.`,
  },
  fr: {
    both: (a, b) => `Préfère être contacté par ${a}, pas par ${b}.`,
    pos: (a) => `Préfère être contacté par ${a}.`,
    neg: (b) => `Préfère ne pas être contacté par ${b}.`,
  },
  es: {
    both: (a, b) => `Prefiere que le contacten por ${a}, no por ${b}.`,
    pos: (a) => `Prefiere que le contacten por ${a}.`,
    neg: (b) => `Prefiere que no le contacten por ${b}.`,
  },
  pt: {
    both: (a, b) => `Prefere ser contactado por ${a}, não por ${b}.`,
    pos: (a) => `Prefere ser contactado por ${a}.`,
    neg: (b) => `Prefere não ser contactado por ${b}.`,
  },
};

function contactText(lang: Lang | undefined, pos: Channel | undefined, neg: Channel | undefined) {
  if (lang === undefined || lang === 'en') {
    if (pos !== undefined && neg !== undefined)
      return {
        text: `Prefers ${CHANNEL_TEXT[pos]}, not ${CHANNEL_TEXT[neg]}.`,
        value: CHANNEL_TEXT[pos],
      };
    if (pos !== undefined)
      return { text: `Prefers to be contacted by ${CHANNEL_TEXT[pos]}.`, value: CHANNEL_TEXT[pos] };
    const b = CHANNEL_TEXT[neg ?? 'phone'];
    return { text: `Prefers no ${b}.`, value: b };
  }
  const words = CHANNEL_WORDS[lang];
  const t = CONTACT_TEXT[lang];
  if (pos !== undefined && neg !== undefined)
    return { text: t.both(words[pos], words[neg]), value: words[pos] };
  if (pos !== undefined) return { text: t.pos(words[pos]), value: words[pos] };
  return { text: t.neg(words[neg ?? 'phone']), value: words[neg ?? 'phone'] };
}

/**
 * The contact preference of a sentence (`preference:contact`), from the directives at its clause
 * starts; undefined unless it is a standing one (`always`, a channel it replaces, `don't call me`).
 */
export function contactPreference(
  tokens: readonly Token[],
  starts: readonly number[],
): Candidate | undefined {
  const found: Directive[] = [];
  for (const start of starts) {
    const before = found.length;
    directivesAt(tokens, start, found);
    if (found.length === before) otherDirectivesAt(tokens, start, found);
  }
  const pos = found.find((d) => d.positive);
  const neg = found.find((d) => !d.positive && d.channel !== pos?.channel);
  const lang = pos?.lang ?? neg?.lang;
  let fact: { text: string; value: string } | undefined;
  if (pos !== undefined && neg !== undefined) fact = contactText(lang, pos.channel, neg.channel);
  else if (pos?.standing === true) fact = contactText(lang, pos.channel, undefined);
  else if (neg?.standing === true) fact = contactText(lang, undefined, neg.channel);
  return fact === undefined ? undefined : { kind: 'set', about: 'preference:contact', ...fact };
}

/** A channel word (`email`, `phone calls`), for `i prefer email over phone calls`. */
export function channelOf(value: string): string | undefined {
  const lower = value.toLowerCase().replace(/^(?:an?|by|via) /, '');
  if (lower === 'phone call' || lower === 'call') return CHANNEL_TEXT.phone;
  const channel = lookup(CHANNEL_NOUNS, lower) ?? (lower === 'text messages' ? 'text' : undefined);
  return channel === undefined ? undefined : CHANNEL_TEXT[channel];
}
