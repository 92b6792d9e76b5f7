/** Word lists of the rules extractor (English, German, French, Spanish, Portuguese), lower case. */

const words = (s: string) => new Set(s.split(/\s+/).filter((w) => w.length > 0));

/** Where a statement may begin after: a discourse marker (skipped, up to three in a row). */
export const MARKERS = words(`
  actually well btw oh also anyway ok okay so now update correction sorry hi hello hey
  greetings yes yeah yep fyi indeed honestly basically today nowadays still currently
  eigentlich übrigens also hallo servus moin grüezi ciao ja jetzt inzwischen mittlerweile nun na
  heya hiya buenas howdy
  bonjour salut coucou oui alors bref maintenant enfin désormais
  hola sí bueno pues ahora oye actualmente
  olá oi sim bom então agora aliás atualmente`);
/** Multi-word markers, as token sequences. */
export const MARKER_PHRASES = [
  'by the way',
  'just so you know',
  'for the record',
  'for your information',
  'in fact',
  'to be honest',
  'i mean',
  'good morning',
  'good evening',
  'good afternoon',
  'guten tag',
  'guten morgen',
  'en fait',
  'au fait',
  'en realidad',
  'de hecho',
  'por cierto',
  'na verdade',
  'de facto',
  'bom dia',
  'boa tarde',
  'buenos días',
  'buenas tardes',
  'by the way also',
].map((p) => p.split(' '));
export const GREETINGS = words(`hi hello hey heya hiya greetings howdy hallo servus moin grüezi ciao
  morning evening afternoon
  bonjour salut coucou hola buenas olá oi`);
export const GREETING_PHRASES = new Set([
  'good morning',
  'good evening',
  'good afternoon',
  'guten tag',
  'guten morgen',
  'bom dia',
  'boa tarde',
  'buenos días',
  'buenas tardes',
]);

/**
 * Never the name in a sign-in (`Nobody here`, `Berlin here`, `Me again`, `Hey, it's Monday`):
 * pronouns, common words, times, and places a team signs in from.
 */
export const NOT_SIGN_IN = words(`
  nobody noone everyone everybody someone somebody anyone anybody people folks guys team all
  same nothing everything something us we they them you everyone's staff office
  thanks thank cheers welcome congrats hello hi hey morning evening afternoon night
  once never yes yeah nope still right over up out down here there again back home
  cold hot warm quiet busy late early sunny raining snowing dark midnight noon tonight today
  tomorrow yesterday weekend monday tuesday wednesday thursday friday saturday sunday
  january february march april may june july august september october november december
  spring summer autumn winter christmas easter
  excited confused stuck lost new support sales marketing admin it hr
  berlin london paris tokyo york amsterdam rotterdam madrid barcelona lisbon porto rome milan
  vienna munich hamburg frankfurt dublin sydney melbourne auckland toronto vancouver montreal
  chicago boston seattle austin denver miami dallas houston atlanta brooklyn manhattan
  california texas florida europe asia africa america germany france spain italy portugal
  brazil canada mexico japan china india australia england scotland ireland wales
  netherlands holland poland sweden norway denmark finland switzerland austria belgium
  uk usa eu`);

/** Conjunctions after which a new statement may begin. */
export const CONJUNCTIONS = words(`and but plus und aber sondern et mais y pero e mas`);
/** Words after which a true statement follows (`since we moved to Vancouver, ...`). */
export const SUBORDINATORS = words(`since because as puisque comme porque como pois`);
/** A sentence that opens with these may put its statement after a time (`seit Mai wohne ich`). */
export const TIME_LEAD = words(`seit desde depuis since hace há ever letzten letztes letztem
  last this cet cette este esta`);

/** Adverbs skipped between the words of a pattern (`i really like`, `ich wohne jetzt in`). */
export const ADVERBS = words(`
  really actually currently now also still just absolutely totally definitely truly personally
  recently finally do mostly always genuinely honestly already
  jetzt auch noch gerade wirklich sehr schon seit kurzem inzwischen mittlerweile einfach bitte
  letztes letzten vorigen jahr monat vor jahren monaten wochen zwei drei vier fünf zehn
  bien beaucoup vraiment aussi maintenant actuellement toujours
  mucho también ahora actualmente realmente todavía
  muito também agora atualmente realmente ainda`);

/** Words that end a value when written in lower case (a new clause, a time, a reason). */
export const TERMINATORS = words(`
  and but because since so although though where which who whom whose when while with for
  more less better
  now currently anymore these right at last next this ago recently already too also as
  yesterday today tonight lol haha btw if or than then until till after before
  und aber weil seit jetzt mit wo als wenn oder dann denn gezogen umgezogen geboren
  aufgewachsen nicht mehr gerade schon heute
  et mais parce depuis maintenant avec où qui quand ou puis car actuellement
  y pero porque desde ahora con donde que cuando hace
  e mas porque desde agora com onde quando ou há já
  not never any more`);

/** Tokens dropped from the end of a value (`Paris now`, `Porto last month`). */
export const TRAILING = words(`now too anymore either though lol haha btw here there again
  lately nowadays tbh atm honestly anyway
  jetzt auch hier maintenant aussi ici ahora también aquí agora também aqui ya já`);

/** Never a name, whatever the case. */
export const NOT_NAME = words(`
  not no the a an back here there fine good ok okay sorry sure ready done going just also still
  so very really from at in on with tired new happy glad busy home late ill sick hungry bored
  confused lost stuck afraid alone single married curious interested trying looking working
  talking asking wondering thinking using writing building learning doing on over out up down
  it this that what who me myself you he she they we your his her their our my mine i is am
  name called named ist est es é mi mon ma meu minha mein meine
  nicht kein keine hier da müde gut der die das ein eine
  pas ici le la les un une fatigué content désolé
  no aquí el la los las un una cansado bien
  não aqui o a os as um uma cansado bem
  weird long hard common unusual funny boring difficult secret unknown irrelevant
  german french british english american italian spanish portuguese brazilian canadian mexican
  indian chinese japanese korean russian dutch swiss irish scottish welsh polish swedish
  norwegian danish finnish greek turkish australian african asian european latino latina
  jewish muslim christian catholic gay straight trans deaf blind autistic vegan vegetarian
  deutsch deutscher deutsche français française español española brasileiro brasileira
  portugais portugués português`);

/** Never the first word of a thing a person likes (`i like it`, `i love how you explained`). */
export const NOT_THING = words(`
  it that this these those you your yours how what when where why which who him her them us
  so something anything everything nothing much more less very too here there being
  es das dies dich dir sie ihn euch was wie
  ça cela ce te toi vous comment quand
  eso esto lo te ti usted cómo cuando tu tus su sus
  isso isto você te ti como quando seu sua teu tua
  dein deine deinen deiner ta ton tes votre vos
  night nights noche noches nuit noite noites nacht`);
/** Anywhere in a liked thing, these make it about the conversation partner (`the way you ...`). */
export const ADDRESSEE = words(`you your yours dich dir dein deine deinen deiner toi ton ta tes
  vous votre vos usted tu tus você seu sua teu tua`);
/** Words that never start an occupation after `i work as` (`i work as hard as i can`). */
export const NOT_JOB = words(`hard much long well fast little best usual possible quickly
  many often my our his her their people kids children myself them him you`);
/** Nouns that show a sentence is about the conversation, not a lasting taste. */
export const CONVERSATION_NOUNS = words(`
  answer idea explanation suggestion response reply solution plan example version approach
  question point list code output result tip advice help summary draft option
  antwort idee erklärung vorschlag lösung beispiel
  réponse idée explication suggestion solution exemple
  respuesta idea explicación sugerencia solución ejemplo
  resposta ideia explicação sugestão solução exemplo`);
/** Verbs after `i like to` / `i'd love to` that are talk, not a pastime. */
export const TALK_VERBS = words(`know see hear ask think say thank help try understand learn
  point mention add clarify confirm check share tell`);

/** Places that are not a place someone lives (`i live in fear`, `i'm from the future`). */
export const NOT_PLACE = words(`
  fear hope denial peace harmony sin luxury poverty style comfort bubble world fantasy dream
  mundo monde welt mondo head heart kopf tête cabeza cabeça
  dreams past present future moment meantime meanwhile flat apartment house dorm tent van car
  cave basement room office team department company group support sales marketing class
  question step topic page section part chapter level stage phase thread chat conversation
  it hr qa pr it's internet cloud matrix shadows
  angst frieden zukunft vergangenheit wohnung haus zimmer büro
  peur paix futur passé appartement maison chambre bureau
  miedo paz futuro pasado piso apartamento casa habitación oficina
  medo paz futuro passado apartamento casa quarto escritório`);
/** Not an employer (`i work at home`, `i work for myself`). */
export const NOT_EMPLOYER = words(`
  home night nights weekends weekend myself yourself moment night-shift it this that night
  living free fun food money peanuts tips hours
  hause zuhause home-office nacht
  maison domicile nuit
  casa noche
  casa noite`);

export const ARTICLES = words(`the a an my our der die das den dem des ein eine einen einem
  einer mein meine meinen le la les un une mon ma mes el los las un una unos unas mi mis o a os
  as um uma uns umas meu minha meus minhas to de do da dos das du des`);

/** Sentences with these are jokes, sarcasm or role play: nothing in them is a fact. */
export const NOT_SERIOUS = [
  'yeah right',
  'oh great',
  'oh sure',
  'oh joy',
  'just love',
  ' /s',
  '🙄',
  '😂',
  '🤣',
  'lol',
  'haha',
  'pretend',
  'imagine',
  'roleplay',
  'role-play',
  'role play',
  "let's play",
  "let's say",
  'suppose',
  'hypothetically',
  'fictional',
  'character',
  'in this story',
  'as if',
  'stell dir vor',
  'angenommen',
  'tu sais quoi',
  'imaginons',
  'supongamos',
  'imagina',
  'finja',
  'suponha',
  'jaja',
  'kkkk',
  'mdr',
  'ptdr',
];
/** Messages with these ask about language or text, not about the person. */
export const META = [
  'translate',
  'translation',
  'übersetz',
  'tradu',
  'how do you say',
  'how do i say',
  'grammar',
  'grammatik',
  'grammaire',
  'gramática',
  'example sentence',
  'beispielsatz',
  'phrase d’exemple',
  "phrase d'exemple",
  'in a sentence',
  'proofread',
  'correct this',
  'korrigier',
  'corrige',
  'rewrite',
  'paraphrase',
  'spell check',
  'spellcheck',
  'what does',
  'was bedeutet',
  'que veut dire',
  'qué significa',
  'o que significa',
];

/** Words that make what follows hypothetical or not yet true, when they come first. */
export const CONDITIONAL = words(`if unless suppose supposing whether once when wish hope
  wenn falls ob sobald si quand lorsque cuando ojalá quando caso`);
/** Verbs of saying: a statement after `he said:` is someone else's. */
export const SAYING = words(`said says say told tells wrote writes asked asks replied thinks
  thought sagt sagte schrieb dit disait écrit dice dijo escribió diz disse escreveu`);
