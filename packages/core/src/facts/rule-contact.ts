import type { Candidate } from './rule-pattern.ts';
import type { Token } from './rule-text.ts';

/**
 * How someone wants to be contacted, from the directives of one sentence (English): `always email
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

interface Directive {
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
 * The contact preference of a sentence (`preference:contact`), from the directives at its clause
 * starts; undefined unless it is a standing one (`always`, a channel it replaces, `don't call me`).
 */
export function contactPreference(
  tokens: readonly Token[],
  starts: readonly number[],
): Candidate | undefined {
  const found: Directive[] = [];
  for (const start of starts) directivesAt(tokens, start, found);
  const pos = found.find((d) => d.positive);
  const neg = found.find((d) => !d.positive && d.channel !== pos?.channel);
  if (pos !== undefined && neg !== undefined) {
    const text = `Prefers ${CHANNEL_TEXT[pos.channel]}, not ${CHANNEL_TEXT[neg.channel]}.`;
    return { kind: 'set', about: 'preference:contact', text, value: CHANNEL_TEXT[pos.channel] };
  }
  if (pos?.standing === true) {
    const text = `Prefers to be contacted by ${CHANNEL_TEXT[pos.channel]}.`;
    return { kind: 'set', about: 'preference:contact', text, value: CHANNEL_TEXT[pos.channel] };
  }
  if (neg?.standing === true) {
    const text = `Prefers no ${CHANNEL_TEXT[neg.channel]}.`;
    return { kind: 'set', about: 'preference:contact', text, value: CHANNEL_TEXT[neg.channel] };
  }
  return undefined;
}

/** A channel word (`email`, `phone calls`), for `i prefer email over phone calls`. */
export function channelOf(value: string): string | undefined {
  const lower = value.toLowerCase().replace(/^(?:an?|by|via) /, '');
  if (lower === 'phone call' || lower === 'call') return CHANNEL_TEXT.phone;
  const channel = lookup(CHANNEL_NOUNS, lower) ?? (lower === 'text messages' ? 'text' : undefined);
  return channel === undefined ? undefined : CHANNEL_TEXT[channel];
}
