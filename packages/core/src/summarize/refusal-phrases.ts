import { cjkPhrase, phrase, sentencePhrase } from './error-phrases.ts';

/**
 * How a model refuses, and how a provider says it blocked a request, per language. A refusal
 * speaks in the first person ("I can't help with that", "ich kann ... nicht", "我无法"); a
 * summary reports in the third ("the customer can't log in"). An apology alone is no refusal:
 * "I'm sorry to hear order AF-1042 arrived broken; refund issued" is a summary.
 */
export const REFUSAL_PHRASES: readonly RegExp[] = [
  // English
  phrase(
    String.raw`i(?:'|’)?(?:m| am)?\s+(?:can(?:'|’)?t|cannot|can not|unable to|not able to|won(?:'|’)t|will not|must decline to)\s+(?:\w+\s+){0,2}?(?:help|assist|summari[sz]e|provide|comply|process|complete|fulfil|fulfill|create|generate|continue|share|answer|do that|do this)`,
  ),
  // An apology followed by a first-person "I cannot" (an apology followed by content is no refusal).
  phrase(
    String.raw`(?:sorry|i apologi[sz]e),?\s+(?:but\s+)?i(?:'|’)?(?:m| am)?\s+(?:cannot|can(?:'|’)?t|can not|won(?:'|’)?t|unable|not able)`,
  ),
  sentencePhrase('(?:unable|not able) to (?:summari[sz]e|process|comply|complete|help)'),
  phrase(
    String.raw`as an ai(?: language model| assistant)?|i(?:'|’)?m sorry,? but|sorry,? but i\s`,
  ),
  phrase(
    String.raw`(?:flagged|blocked|rejected|filtered|refused|denied) by (?:our|the) (?:\w+\s+){0,2}?(?:safety|moderation|content|security|trust)`,
  ),
  phrase(
    String.raw`(?:violates?|violating|against) (?:our|the|openai's|anthropic's) (?:\w+\s+)?(?:usage |content )?polic(?:y|ies)`,
  ),
  phrase(
    'content (?:policy|filter|management policy)|moderation (?:endpoint|filter|system)|safety system',
  ),
  // French
  phrase('je ne (?:peux|pourrai|suis pas en mesure de|vais pas)'),
  phrase(
    String.raw`bloqué(?:e|s|es)? par (?:notre|nos|le|la|les) (?:\p{L}+\s+){0,2}?(?:sécurité|modération|politique)`,
  ),
  phrase('filtre de sécurité|politique de contenu'),
  // German
  phrase(String.raw`(?:ich kann|kann ich)\s+(?:\S+\s+){0,8}?(?:nicht|keine?n?)`),
  phrase(String.raw`gegen (?:unsere|die) (?:\p{L}+\s+)?richtlinien`),
  // Spanish, Portuguese, Italian
  phrase('no (?:puedo|me es posible|estoy en condiciones de)|lo siento,? pero no'),
  phrase(
    String.raw`bloquead[oa]s? por (?:nuestr\p{L}+|el|la|los|las) (?:\p{L}+\s+){0,2}?(?:políticas?|seguridad|filtro|sistema)`,
  ),
  phrase(
    String.raw`não (?:posso|consigo|sou capaz de)|bloquead[oa] pel[oa]s? (?:noss\p{L}+|sistema|filtro)`,
  ),
  phrase(
    String.raw`non (?:posso|sono in grado di|riesco a)|bloccat[oa] da(?:l|lla|i)? (?:nostr\p{L}+|filtro|sistema)`,
  ),
  // Dutch, Turkish, Polish
  phrase(String.raw`ik kan\s+(?:\S+\s+){0,6}?(?:niet|geen)`),
  phrase('özetleyemem|yardımcı olam(?:am|ıyorum)|yapam(?:am|ıyorum)|üzgünüm,? (?:ancak|ama|fakat)'),
  phrase(
    String.raw`infringe (?:nuestras|las) (?:normas|políticas)|normas de uso|règles d'utilisation|nutzungsrichtlinien|norme d'uso|usage (?:policies|guidelines)`,
  ),
  phrase('nie (?:mogę|jestem w stanie)|przepraszam,? ale'),
  // Russian
  phrase(
    'я не (?:могу|в состоянии|смогу)|не могу (?:помочь|обобщить|кратко|выполнить|обработать|составить)',
  ),
  phrase(String.raw`заблокирован\p{L}* (?:системой|фильтром|политикой)`),
  // Japanese, Chinese, Korean
  cjkPhrase(
    '(?:要約|お手伝い|対応|回答|お答え|ご提供|処理|お応え)(?:することは|することが|は)?(?:でき(?:ません|かねます)|いたしかねます)',
  ),
  cjkPhrase('(?:安全|セキュリティ)(?:ポリシー|性ポリシー|上の理由)により|ブロックされました'),
  cjkPhrase(
    String.raw`我(?:无法|不能|没法|没有办法)|抱歉[，,]\s*我|已被拦截|(?:违反|违背)了?\S{0,8}(?:政策|策略)`,
  ),
  cjkPhrase(
    '(?:요약해 ?드릴|도와 ?드릴|처리해 ?드릴|답변해 ?드릴|제공해 ?드릴|요약할|처리할) 수 없습니다|(?:안전|보안) 정책에 (?:의해|따라) 차단',
  ),
  // Arabic, Hebrew, Hindi
  cjkPhrase('لا أستطيع|لا يمكنني|لا يسعني|لن أتمكن|تم حظر'),
  cjkPhrase('אני לא (?:יכול|יכולה)|(?:אינני|איני) (?:יכול|יכולה)|לא אוכל|נחסמה? על ידי'),
  cjkPhrase(String.raw`मैं\s+(?:\S+\s+){0,4}?नहीं कर (?:सकता|सकती)`),
];
