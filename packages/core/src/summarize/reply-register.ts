/**
 * The register of a reply to the reader, as opposed to a report about a conversation: first and
 * second person ("I", "we", "you", "ich", "nous", "您"), politeness and apology ("please",
 * "sorry", "bitte", "抱歉"), and putting off ("later", "shortly", "稍后"). An error message or a
 * refusal speaks so, in any wording; a summary reports in the third person. Only used on a text
 * that shares nothing with its conversation, where nothing else can tell the two apart.
 */

/**
 * Words that speak to or as someone — first and second person, please, sorry, oops — in the
 * languages written with spaces, lowercased. One of them is enough in a text that shares nothing
 * with its conversation: a report about a conversation is written in the third person.
 */
const PERSON_WORDS: ReadonlySet<string> = new Set(
  `i i'm im i've i'll i'd me my we we're we've our ours us you you're your please sorry oops
  apologies apologize unfortunately
  ich mich mir wir uns unser unsere du dich dir ihnen bitte leider ups hoppla entschuldigung
  je j' moi nous notre vous votre tu te désolé désolée veuillez oups malheureusement
  yo me mi nosotros nuestro nuestra usted siento favor lamentablemente ups
  eu nós nosso nossa você desculpe infelizmente
  io noi nostro nostra scusa scusate dispiace purtroppo
  я мне мы нас наш вы вас ваш ты тебя извините пожалуйста сожалению
  ben biz siz lütfen maalesef üzgünüm
  ik wij ons jij helaas alstublieft
  ja my przepraszam proszę niestety
  אני אנחנו אתה אנא מצטער מצטערת
  أنا نحن أنت عذرا عذرًا آسف يرجى الرجاء
  मैं हम आप कृपया क्षमा`.split(/\s+/),
);
/**
 * Words of putting off ("later", "shortly", "again"): a reply's, but a report may use them too
 * ("moved to a later flight"), so they count only beside another reply word.
 */
const DEFER_WORDS: ReadonlySet<string> = new Set(
  `later shortly soon moment again bit merci
  später gleich nochmal erneut tard instants tarde nuevamente novamente tardi позже później
  لاحقًا`.split(/\s+/),
);
/** Person markers of the scripts written without spaces (Chinese, Japanese, Korean). */
const PERSON_MARKERS =
  /我|您|你|请|抱歉|对不起|私|弊社|ください|申し訳|すみません|恐れ入り|저희|제가|죄송|주세요|드립니다|드리기/u;
/** Putting-off markers of those scripts. */
const DEFER_MARKERS = /稍后|しばらく|잠시/gu;
const WORD = /\p{L}+(?:['’]\p{L}*)?/gu;

/** Without a person word: at least this many putting-off words, making this share of the words. */
const MIN_DEFER_WORDS = 2;
const MIN_DEFER_SHARE = 0.2;

/** True when `text` speaks to its reader (or as its writer) rather than about a conversation. */
export function readsAsReply(text: string): boolean {
  if (PERSON_MARKERS.test(text)) return true;
  const words = (text.toLowerCase().match(WORD) ?? []).map((w) => w.replace(/’/g, "'"));
  if (words.some((w) => PERSON_WORDS.has(w))) return true;
  const deferring =
    words.filter((w) => DEFER_WORDS.has(w)).length + (text.match(DEFER_MARKERS) ?? []).length;
  return deferring >= MIN_DEFER_WORDS && deferring >= words.length * MIN_DEFER_SHARE;
}

/** The writer speaking of itself: first person singular. */
const FIRST_PERSON: ReadonlySet<string> = new Set(
  `i'm im i've i'll i'd ich je j' yo eu io я ben ik ja אני أنا मैं`.split(/\s+/),
);
const FIRST_PERSON_MARKERS = /我|私|제가|저는/u;
/** English "I" as a word, capitalised (the Italian article "i" is lowercase mid-sentence). */
const ENGLISH_I = /(?:^|[^\p{L}])I(?=[\s,.!?]|$)/u;
/** A negation in the major languages. */
const NEGATION: ReadonlySet<string> = new Set(
  `not can't cannot won't don't unable nicht nichts kein keine ne pas n' no não non не нет nie niet lo لا नहीं değil`.split(
    /\s+/,
  ),
);
const NEGATION_MARKERS = /不|ない|できません|않|없|못|어렵/u;
/** A refusal is short: longer texts in the first person are reports that quote someone. */
const MAX_REFUSAL_WORDS = 20;

/**
 * True when `text` is a short reply in which its writer declines, in the first person singular
 * with a negation ("I can't summarize HR-660127", "Je préfère ne pas répondre", "Я не буду
 * отвечать"), whatever it shares with the conversation. A summary reports in the third person.
 */
export function declinesInFirstPerson(text: string): boolean {
  const words = (text.toLowerCase().match(WORD) ?? []).map((w) => w.replace(/’/g, "'"));
  if (words.length > MAX_REFUSAL_WORDS) return false;
  const first =
    FIRST_PERSON_MARKERS.test(text) ||
    ENGLISH_I.test(text) ||
    words.some((w) => FIRST_PERSON.has(w));
  const negated =
    NEGATION_MARKERS.test(text) || words.some((w) => NEGATION.has(w) || w.endsWith("n't"));
  return first && negated;
}
