/**
 * How a reply talks about the task instead of the conversation. One that speaks of summarizing
 * and of not doing it ("I can't provide a summary", "Zum Auftrag darf ich keine Zusammenfassung
 * ausgeben", "の要約に失敗しました", "我不能总结"), or tells its reader their request failed
 * ("Your request ... was flagged", "No pudimos procesar tu solicitud"), is a refusal or an error,
 * in any wording: a summary reports the conversation, not its own making. Unless the conversation
 * itself talks so (checked by the caller with `talksOfSummarizing` / `refusesRequest`).
 */

/** Summarizing, per language (English `resume` is not `résumer`: accents are required). */
const SUMMARIZING = new RegExp(
  [
    String.raw`(?<!\p{L})(?:summar\p{L}*|résum\p{L}*|zusammenfass\p{L}*|resum(?:ir|en|o|os|ido)|riassun\p{L}*|riassum\p{L}*|samenvat\p{L}*|özet\p{L}*|podsumow\p{L}*|streszcz\p{L}*|обобщ\p{L}*|резюм\p{L}*|изложить|תקציר|סיכום|לסכם|تلخيص|ملخص|सारांश)(?!\p{L})`,
    '要約|要旨|总结|總結|概括|摘要|요약',
  ].join('|'),
  'iu',
);
/** Not doing it: a negation or a failure, per language. */
const NOT_DONE = new RegExp(
  [
    String.raw`(?<!\p{L})(?:not|no|never|cannot|\p{L}+n['’]t|unable|failed|impossible|impossibile|imposible|unmöglich|невозможно|nicht|keine?n?|ne|pas|non|não|niet|geen|nie|не|нельзя|yapılamadı|başarısız|לא|אין|لا|لم|नहीं)(?!\p{L})`,
    'でき(?:ません|かね)|失敗|不能|无法|無法|失败|수 없|실패',
  ].join('|'),
  'iu',
);
/** Ways a summary may open or sum up that name summarizing without being about it. */
const SUMMARY_OPENERS =
  /^\s*(?:summary|résumé|resumen|resumo|zusammenfassung|riassunto|samenvatting|要約|总结|요약)\s*[:：]|(?<!\p{L})(?:in summary|to summari[sz]e|en résumé|en resumen|em resumo|zusammenfassend|in sintesi|in het kort)(?!\p{L})/giu;
/** The transcript's own labels for an earlier summary. */
const TRANSCRIPT_LABELS = /\[(?:Earlier summary|Previous conversation summary)\]/g;
const SENTENCE = /[^.!?。！？\n]+/gu;

/** True when the conversation (`foldedSource`, lowercased) is itself about summaries. */
export function talksOfSummarizing(foldedSource: string): boolean {
  return SUMMARIZING.test(
    foldedSource.replace(/\[(?:earlier summary|previous conversation summary)\]/g, ''),
  );
}

/** True when a sentence of `text` speaks of summarizing and of not doing it. */
export function declinesToSummarize(text: string): boolean {
  const plain = text.replace(TRANSCRIPT_LABELS, ' ').replace(SUMMARY_OPENERS, ' ');
  for (const [sentence] of plain.matchAll(SENTENCE)) {
    if (SUMMARIZING.test(sentence) && NOT_DONE.test(sentence)) return true;
  }
  return false;
}

/** The reader's request, addressed to them: "your request", "votre demande", "tu solicitud". */
const YOUR_REQUEST = new RegExp(
  [
    String.raw`(?<!\p{L})(?:your|votre|vos|ihre?|deine?|tu|tus|sua|seu|tua|tuo|ваш\p{L}*|твой|твоя) (?:\p{L}+ ){0,2}?(?:request|prompt|input|message|demande|requête|anfrage|eingabe|nachricht|solicitud|mensaje|solicitação|mensagem|richiesta|messaggio|запрос|сообщение)(?!\p{L})`,
    '您的(?:请求|输入|消息)|你的(?:请求|输入)|귀하의 요청|お客様のリクエスト',
  ].join('|'),
  'iu',
);
/** That it failed or was blocked. */
const FAILED = new RegExp(
  [
    NOT_DONE.source,
    String.raw`(?<!\p{L})(?:failed|blocked|flagged|rejected|denied|exceeds?|exceeded|invalid|error|erreur|fehler|errore|erro|ошибк\p{L}*|bloqu\p{L}*|blockiert|bloccat\p{L}*|заблокирован\p{L}*|abgelehnt|rechazad\p{L}*|rejeitad\p{L}*|rifiutat\p{L}*|refusée?)(?!\p{L})`,
    '失败|错误|拦截|오류|실패|차단',
  ].join('|'),
  'iu',
);

/**
 * True when a sentence of `text` tells the reader their request failed or was blocked ("Your
 * request ... was flagged", "No pudimos procesar tu solicitud"): a summary reports the
 * conversation; it does not answer the request that asked for it.
 */
export function refusesRequest(text: string): boolean {
  for (const [sentence] of text.matchAll(SENTENCE)) {
    if (YOUR_REQUEST.test(sentence) && FAILED.test(sentence)) return true;
  }
  return false;
}
