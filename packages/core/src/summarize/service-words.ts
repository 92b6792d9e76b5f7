/**
 * The words a service uses about itself: requests, servers, models, quotas, limits, access,
 * retries. An error reply nobody listed ("Quota exhausted for project 4411. Contact your
 * administrator.") is mostly made of them; a summary of a conversation, even one about an
 * outage, is mostly not. Lowercased, Latin diacritics removed (as `analyzeText` gives them).
 */
export const SERVICE_WORDS: ReadonlySet<string> = new Set(
  `error errors failed fail failure request requests requested response status code server servers
  service http https api key keys internal connection connect please try again later retry
  temporarily unavailable timeout timed quota quotas exceeded exceeds exceed exhausted limit limits
  rate model models token tokens context length maximum invalid unexpected unexpectedly
  unauthorized forbidden denied permission access account organization org disabled suspended
  deployment endpoint resource located gateway upstream proxy socket closed network overloaded
  capacity administrator admin contact verify human captcha cloudflare ray json position url uri
  missing required parameter exist exists found policy policies safety moderation flagged
  violates provider credits balance subscription usage processing processed persists
  fehler anfrage dienst verfugbar spater erneut versuchen zeituberschreitung zugriff verweigert
  kontingent erreur requete serveur indisponible reessayer delai depasse acces refuse solicitud
  servidor servicio disponible intentelo intente cuota solicitacao requisicao servico
  indisponivel tente novamente errore richiesta servizio riprova ошибка запрос сервер сервис
  недоступен повторите попытку позже квота
  unable respond responding reply answer system maintenance wait
  repond reponse reponses systeme maintenance patienter attendre
  antwort antworten system wartung warten
  responder respuesta sistema mantenimiento esperar
  resposta sistema manutencao aguarde
  rispondere risposta sistema manutenzione attendere
  ответ ответа ответить сервера система обслуживание`.split(/\s+/),
);
