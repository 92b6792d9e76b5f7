/**
 * What error messages say, in the languages providers and apps answer in: "an error occurred",
 * "please try again later", "the service is unavailable", "too many requests". Unlike the shapes
 * of `error-text.ts` these may stand anywhere in a text, and an error that quotes the conversation
 * still says them. A summary can only repeat such a phrase when its conversation says it too
 * (`unsaidPhrase` skips those).
 */

const LETTER_OR_DIGIT = String.raw`[\p{L}\p{N}]`;
/** A sentence start: the text's start, or after `.`, `!`, `?` (any script) and spaces. */
const SENTENCE_START = String.raw`(?<=^|[.!?。！？:：]\s*)`;

/** `source` as a whole-word, case-insensitive pattern (`\b` knows only ASCII letters). */
export function phrase(source: string): RegExp {
  return new RegExp(`(?<!${LETTER_OR_DIGIT})(?:${source})(?!${LETTER_OR_DIGIT})`, 'iu');
}

/** `source` at the start of a sentence. */
export function sentencePhrase(source: string): RegExp {
  return new RegExp(`${SENTENCE_START}(?:${source})(?!${LETTER_OR_DIGIT})`, 'iu');
}

/** For scripts without spaces (Japanese, Chinese): a plain substring pattern. */
export function cjkPhrase(source: string): RegExp {
  return new RegExp(source, 'u');
}

/** That something failed, or that the reader should try again later, per language. */
export const ERROR_PHRASES: readonly RegExp[] = [
  // English
  sentencePhrase(
    String.raw`(?:sorry,?\s+)?an?\s+(?:unexpected\s+|internal\s+|unknown\s+|server\s+)?error\s+(?:has\s+)?occurred`,
  ),
  sentencePhrase(String.raw`(?:sorry,?\s+|oops,?\s+)?something went wrong`),
  phrase(String.raw`please\s+(?:try|retry)`),
  sentencePhrase(
    String.raw`(?:try again|retry)(?:\s+\w+){0,3}\s+(?:later|shortly|in a (?:few|moment))`,
  ),
  phrase('(?:you can|you may) retry your request|retry your request shortly'),
  phrase('if the (?:error|problem|issue) persists'),
  phrase(
    String.raw`(?:service|server|model|api|system|systems|endpoint)s?\s+(?:is|are)\s+(?:currently\s+|temporarily\s+|now\s+)?(?:experiencing|overloaded|unavailable|busy)`,
  ),
  phrase('(?:are|is) experiencing (?:high|heavy|unusual) (?:demand|load|traffic)'),
  phrase('exceeds? the max(?:imum)? (?:length|context|allowed|number|size)'),
  phrase('maximum context length|context[_ ]length[_ ]exceeded|insufficient[_ ]quota'),
  phrase('exceeded your (?:current )?quota|rate limit (?:reached|exceeded)|too many requests'),
  phrase('you are being rate limited|you have been blocked'),
  // Something went wrong, a problem occurred, try again: other languages
  phrase(
    'algo (?:salió|ha salido|deu|correu) (?:mal|errado)|qualcosa (?:è|e) andato storto|что-то пошло не так|bir şeyler ters gitti|coś poszło nie tak|er (?:ging|is) iets mis(?:gegaan)?',
  ),
  phrase(
    String.raw`un problème (?:technique |inattendu )?(?:est survenu|s'est produit)|réessayez|riprova(?:re)?|tente de novo`,
  ),
  sentencePhrase(String.raw`es ist (?:leider )?ein (?:\p{L}+ )?(?:fehler|problem) aufgetreten`),
  // An apology and an error in one sentence: "Entschuldigung, bei der Verarbeitung ist ein Fehler aufgetreten".
  phrase(
    String.raw`(?:sorry|entschuldigung|leider|tut uns leid|désolé|lo siento|desculpe|scusa|mi dispiace|извините)[^.!?]{0,60}(?:error|fehler|problem|erreur|problème|errore|erro|ошибка)[^.!?]{0,20}(?:occurred|aufgetreten|survenu|produit|producido|ocurrido|ocorreu|verificato|произошла)`,
  ),
  // Could not do it: "Failed to process...", "Impossible de traiter...", "No pudimos procesar..."
  sentencePhrase(
    String.raw`(?:failed|unable|could not|couldn't|cannot) (?:to )?(?:process|complete|generate|fetch|connect|load|parse|handle|reach|call|send|read)`,
  ),
  sentencePhrase(
    String.raw`impossible de (?:traiter|générer|répondre|charger|joindre|se connecter)|impossibile (?:completare|elaborare|generare|caricare|connettersi)|no (?:pudimos|se pudo|hemos podido) (?:procesar|completar|generar|cargar|conectar)|não foi possível (?:processar|concluir|gerar|carregar|conectar)|не удалось (?:обработать|выполнить|загрузить|подключиться|сгенерировать)`,
  ),
  phrase(
    String.raw`(?:anfrage|nachricht) konnte nicht|konnte nicht (?:verarbeitet|bearbeitet|geladen) werden`,
  ),
  // Busy, overloaded, under maintenance; reload, try again (informal forms too)
  phrase(
    String.raw`(?:server|dienst|system) ist (?:gerade |derzeit |momentan |zurzeit )?(?:überlastet|ausgelastet|nicht erreichbar|nicht verfügbar)|etwas (?:ist )?schief(?:gelaufen|gegangen)`,
  ),
  phrase(
    String.raw`(?:bitte )?(?:lade|laden sie) die seite neu|versuch(?:e|en sie)? es (?:\p{L}+ ){0,4}?(?:noch einmal|erneut|nochmal)`,
  ),
  phrase(String.raw`intenta(?:lo)? (?:nuevamente|otra vez)|inténtelo nuevamente|vuelve a intentar`),
  phrase(
    String.raw`(?:è|e) (?:momentaneamente|temporaneamente) non disponibile|(?:est|sont) momentanément indisponibles?`,
  ),
  // French
  phrase(
    String.raw`(?:une|l')\s*erreur\s+(?:interne\s+|inattendue\s+|technique\s+|serveur\s+)?(?:est survenue|s'est produite|a été rencontrée)`,
  ),
  phrase('veuillez (?:réessayer|ressayer|patienter)|merci de réessayer|réessayez plus tard'),
  phrase(
    String.raw`service (?:momentanément |temporairement )?indisponible|délai d'attente (?:dépassé|expiré)`,
  ),
  phrase('limite de requêtes'),
  // German
  phrase('ein (?:interner |unerwarteter |technischer |unbekannter )?fehler ist aufgetreten'),
  phrase('bitte (?:versuchen sie|versuche|später|erneut)'),
  phrase('versuchen sie es (?:später |bald )?(?:erneut|noch einmal)'),
  phrase(
    String.raw`(?:dienst|service|server)\s+ist\s+(?:vorübergehend\s+|derzeit\s+|momentan\s+)?nicht\s+(?:verfügbar|erreichbar)`,
  ),
  sentencePhrase('zeitüberschreitung'),
  phrase('kontingent überschritten'),
  // Spanish
  sentencePhrase(
    String.raw`(?:lo siento,?\s+)?(?:se (?:ha )?produjo|ha ocurrido|ocurrió) un error`,
  ),
  phrase(
    '(?:inténtalo|inténtelo|vuelve a intentarlo|vuelva a intentarlo|intenta de nuevo|intente de nuevo)',
  ),
  phrase('servicio (?:temporalmente )?no disponible|tiempo de espera agotado'),
  phrase('(?:has|ha) superado el límite'),
  // Portuguese
  sentencePhrase(String.raw`(?:desculpe,?\s+)?ocorreu um erro`),
  phrase('tente novamente|serviço (?:temporariamente )?indisponível'),
  phrase('tempo limite(?: da solicitação)? esgotado|limite de requisições'),
  // Italian
  sentencePhrase('si è verificato un errore'),
  phrase('riprova(?:re)? (?:più tardi|tra)|servizio (?:temporaneamente )?non disponibile'),
  phrase('limite di richieste'),
  // Dutch, Turkish, Polish
  phrase('er is een (?:fout|probleem) opgetreden|probeer het (?:later )?opnieuw'),
  phrase('tijdelijk niet beschikbaar'),
  phrase('bir hata oluştu|tekrar deneyin|zaman aşımına uğradı|sunucu hatası'),
  phrase('wystąpił (?:nieoczekiwany )?błąd|spróbuj(?:cie)? ponownie'),
  phrase(String.raw`(?:usługa|serwis) (?:jest )?(?:chwilowo |tymczasowo )?niedostępn\p{L}*`),
  // Russian
  phrase(String.raw`произошла (?:\p{L}+ )?ошибка|повторите (?:попытку|запрос)`),
  phrase('попробуйте (?:ещё раз|еще раз|позже|снова|обновить)'),
  phrase(String.raw`(?:сервис|служба|сервер) (?:временно )?недоступ\p{L}*`),
  phrase('превышено время ожидания|превышена квота|слишком много запросов'),
  // Japanese
  cjkPhrase('エラーが発生しました|問題が発生しました|再試行してください'),
  cjkPhrase(
    '(?:しばらく|時間を置いて|後で|のちほど|もう一度|再度)[^。]{0,12}(?:お試しください|再試行してください|やり直してください)',
  ),
  cjkPhrase('一時的にご利用いただけません|タイムアウトしました|リクエストが多すぎます'),
  cjkPhrase('混み合って(?:おり|い)ます|再度アクセスしてください|メンテナンス中'),
  // Chinese
  cjkPhrase('请稍后(?:再试|重试)|服务暂时不可用|出错了|请求过于频繁|系统繁忙|网络异常|系统异常'),
  cjkPhrase('请[^。！]{0,12}(?:重试|再试|再来)|开小差|(?:系统|服务器)维护中'),
  cjkPhrase('(?:服务器|系统)内部错误|服务器错误|发生了?(?:未知|内部)?错误'),
  // Korean
  cjkPhrase(
    '오류가 발생했습니다|문제가 발생했습니다|다시 시도해 ?주세요|일시적으로 사용할 수 없습니다',
  ),
  cjkPhrase('시간이 초과되었습니다|할당량을 초과|점검 중입니다|불편을 드려 죄송합니다'),
  // Arabic
  cjkPhrase('حدث خطأ|(?:يرجى|الرجاء|يُرجى) (?:المحاولة|إعادة المحاولة)|حاول مرة أخرى'),
  cjkPhrase('غير (?:متاحة|متوفرة) (?:مؤقت|حالي)|انتهت مهلة'),
  // Hebrew
  cjkPhrase('(?:אירעה|ארעה|התרחשה) (?:שגיאה|תקלה)|(?:נסה|נסו|נסי) שוב'),
  cjkPhrase('(?:השירות|השרת) (?:אינו|לא) זמין|תם הזמן הקצוב|משהו השתבש'),
  // Hindi
  cjkPhrase('त्रुटि (?:हुई|आई)|बाद में (?:पुनः )?प्रयास करें|कुछ गलत हो गया'),
];

/** Lowercased, runs of white space as one space: how a phrase is looked for in a source. */
export function foldForPhrase(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ');
}

/**
 * The first match of `patterns` in `text` that `foldedSource` (the conversation, folded with
 * `foldForPhrase`) does not say itself, or undefined.
 */
export function unsaidPhrase(
  text: string,
  patterns: readonly RegExp[],
  foldedSource: string | undefined,
): string | undefined {
  for (const pattern of patterns) {
    const match = pattern.exec(text);
    if (match === null) continue;
    const said = foldForPhrase(match[0].trim());
    if (foldedSource !== undefined && said.length > 0 && foldedSource.includes(said)) continue;
    return match[0].trim();
  }
  return undefined;
}
