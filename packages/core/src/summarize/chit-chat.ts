/**
 * Greetings, reactions and filler in dialogue: what a summary of a conversation between people
 * leaves out. `stripChitChat` removes openers ("Haha, ", "Hey Mel! ", "Wow, ") and a closing
 * vocative (", Melanie!"); `contentWords` counts what is left that is neither a function word
 * nor a reaction. English only; other languages keep their words.
 */

/** Tells whether a capitalised word names (or shortens the name of) someone in the conversation. */
export type IsSpeaker = (word: string) => boolean;

/** Words an opener may consist of: greetings, interjections, thanks, agreement. */
const OPENER_WORDS = new Set(
  `hey hi hello hiya heya yo oh ooh ah aw wow whoa woah haha hahaha hehe lol lmao omg yeah yea
  yep yup yes no nope nah ok okay well so um uh hmm hm gosh geez thanks thank you thx so much
  cool great nice awesome amazing sure totally absolutely definitely exactly indeed right true
  congrats congratulations bye goodbye cheers sounds good morning afternoon evening night dear
  perfect fantastic wonderful lovely agreed i agree love that this it omg wait what really`.split(
    /\s+/,
  ),
);
/** Drawn-out interjections: `aww`, `hahaha`, `ohhh`, `hmmm`, `wooow`. */
const STRETCHED = /^(?:a+w+|(?:h+[ae]+)+h*|o+h+|a+h+|w+o+w+|l+o+l+|h+m+|u+[hm]+|y+a+y+)$/;

/**
 * Words that carry no fact on their own: function words, reactions, small talk. A sentence of
 * these only ("That sounds great, I'm so happy for you!") is chit-chat.
 */
const FILLER = new Set(
  `a an and are as at be been being but by can could did do does doing for from had has have
  having he her hers him his how i if in into is it its me my of on or our ours out she so such
  than that the their them then there these they this those to too up us was we were what when
  where which who whom why will with would you your yours i'm i've i'll i'd you're you've you'll
  you'd we're we've we'll it's that's there's what's how's let's he's she's they're don't
  doesn't didn't can't cannot won't wouldn't isn't aren't wasn't weren't haven't hasn't
  shouldn't couldn't must've would've could've should've just really very also all any some
  much many more most lot lots bit little kind sort thing things stuff something anything
  everything nothing one ones way here now still even ever always never again soon later yet
  yes yeah yea yep yup no nope nah not ok okay oh ah aw wow haha lol omg hey hi hello bye
  thanks thank please sorry sure cool great good nice awesome amazing fantastic wonderful lovely
  beautiful cute incredible perfect fun funny glad happy excited exciting proud sweet hope
  hoping hopefully love loved loving like enjoy enjoyed wish luck best congrats congratulations
  agree agreed totally absolutely definitely exactly true right indeed sound sounds seem seems
  look looks looking feel feels felt feeling think thought know knew mean means meant guess bet
  wait see seeing hear heard talk talking chat catch care take keep going gonna get got go come
  make made say said tell told share sharing appreciate appreciated support supportive inspiring
  inspired touching powerful tough hard crazy interesting special important welcome help
  helping else comes through together wonder same let lets need needs give giving ya posted
  update day time today tomorrow tonight how'd what'd where'd who'd`.split(/\s+/),
);

/** An opener: up to four words, then `,` `!` `.` `…` `~` or a dash. */
const OPENER = /^([\p{L}'’]+(?:\s+[\p{L}'’]+){0,3})\s*(?:[,!.…~;]+|\s[-–—]+)\s*/u;
/** A closing vocative: `, Mel!`. */
const CLOSING_NAME = /,\s*(\p{Lu}[\p{L}'’]*)\s*([!?.…]*)$/u;
const CAPITALISED = /^\p{Lu}/u;
const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu;
const MAX_OPENERS = 4;

const isOpenerWord = (word: string) => {
  const lower = word.toLowerCase().replaceAll('’', "'");
  return OPENER_WORDS.has(lower) || STRETCHED.test(lower);
};

/** `sentence` without leading greetings/interjections and a closing vocative. */
export function stripChitChat(sentence: string, isSpeaker: IsSpeaker): string {
  let text = sentence;
  for (let i = 0; i < MAX_OPENERS; i++) {
    const m = OPENER.exec(text);
    if (m === null) break;
    const words = m[1]!.split(/\s+/);
    // "Hey Mel!": a capitalised word after a greeting, or a speaker's name, is a vocative.
    const filler = words.every(
      (w, j) =>
        isOpenerWord(w) ||
        (CAPITALISED.test(w) && (isSpeaker(w) || words.slice(0, j).some(isOpenerWord))),
    );
    if (!filler) break;
    text = text.slice(m[0].length);
  }
  const closing = CLOSING_NAME.exec(text);
  if (closing !== null && isSpeaker(closing[1]!)) {
    text = `${text.slice(0, closing.index)}${closing[2]}`;
  }
  return text.trim();
}

/** How many words of `text` are neither filler nor a speaker's name. */
export function contentWords(text: string, isSpeaker: IsSpeaker): number {
  let count = 0;
  for (const [word] of text.matchAll(WORD)) {
    const lower = word.toLowerCase().replaceAll('’', "'");
    if (lower.length < 2 || FILLER.has(lower) || STRETCHED.test(lower)) continue;
    if (CAPITALISED.test(word) && isSpeaker(word)) continue;
    count++;
  }
  return count;
}
