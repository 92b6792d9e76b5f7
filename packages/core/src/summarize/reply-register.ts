/**
 * The register of a reply to the reader, as opposed to a report about a conversation: first and
 * second person ("I", "we", "you", "ich", "nous", "您"), politeness and apology ("please",
 * "sorry", "bitte", "抱歉"), and putting off ("later", "shortly", "稍后"). An error message or a
 * refusal speaks so, in any wording; a summary reports in the third person. Only used on a text
 * that shares nothing with its conversation, where nothing else can tell the two apart.
 */

/** Reply words of the languages written with spaces, lowercased. */
const REPLY_WORDS: ReadonlySet<string> = new Set(
  `i i'm im i've i'll we we're we've our ours us you you're your please sorry oops hmm apologies
  apologize unfortunately later shortly soon moment again bit
  ich wir uns unser unsere du dich dir ihnen bitte leider ups hoppla entschuldigung später gleich
  nochmal erneut
  je j' nous notre vous votre tu te désolé désolée merci veuillez oups malheureusement tard
  instants
  yo nosotros nuestro nuestra usted siento favor lamentablemente tarde nuevamente
  eu nós nosso nossa você desculpe infelizmente novamente
  io noi nostro nostra scusa scusate dispiace purtroppo tardi
  я мы нас наш вы вас ваш ты тебя извините пожалуйста сожалению позже
  ben biz siz lütfen maalesef üzgünüm
  ik wij ons jij helaas alstublieft
  ja my przepraszam proszę niestety później
  אני אנחנו אתה אנא מצטער מצטערת
  أنا نحن أنت عذرا عذرًا آسف يرجى الرجاء لاحقًا
  मैं हम आप कृपया क्षमा`.split(/\s+/),
);
/** Reply markers of the scripts written without spaces (Chinese, Japanese, Korean). */
const REPLY_MARKERS =
  /我|您|你|请|抱歉|稍后|对不起|私|弊社|ください|申し訳|すみません|しばらく|恐れ入り|저희|제가|잠시|죄송|주세요|드립니다|드리기/gu;
const WORD = /\p{L}+(?:['’]\p{L}*)?/gu;

/** At least this many reply words, making at least this share of the words. */
const MIN_REPLY_WORDS = 2;
const MIN_REPLY_SHARE = 0.2;

/** True when `text` speaks to its reader rather than about a conversation. */
export function readsAsReply(text: string): boolean {
  const markers = new Set(text.match(REPLY_MARKERS) ?? []);
  if (markers.size >= MIN_REPLY_WORDS) return true;
  const words = (text.toLowerCase().match(WORD) ?? []).map((w) => w.replace(/’/g, "'"));
  if (words.length === 0) return false;
  const reply = words.filter((w) => REPLY_WORDS.has(w)).length;
  return reply >= MIN_REPLY_WORDS && reply >= words.length * MIN_REPLY_SHARE;
}
