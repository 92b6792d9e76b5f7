/**
 * Wordings that mark a personal fact worth keeping even without a name or a number: people
 * close to the speaker, preferences, plans, changes of state and times. English only; other
 * languages rely on names, numbers and ids.
 */

const RELATIONS =
  'kids?|children|sons?|daughters?|wife|husband|partner|boyfriend|girlfriend|fianc[ée]e?|mom|mum|mother|dad|father|parents|sisters?|brothers?|siblings?|family|friends?|grand(?:ma|pa|mother|father|parents)|aunt|uncle|cousins?|niece|nephew|boss|colleagues?|co-?workers?|team|neighbou?rs?|roommates?|dog|cat|pets?|puppy|kitten|baby|students?|clients?|doctor|therapist';

const CUES: readonly RegExp[] = [
  // People: relatives, friends, colleagues and pets of the speaker.
  new RegExp(String.raw`\b(?:my|our|his|her|their)\s+(?:\w+\s+)?(?:${RELATIONS})\b`, 'i'),
  // Preferences.
  /\b(?:i|we|he|she|they|i'd|i'm|i've)\s+(?:really\s+|absolutely\s+|just\s+|totally\s+|also\s+|still\s+|always\s+|kind of\s+|don't\s+|do not\s+|never\s+)?(?:love[sd]?|like[sd]?|enjoy(?:s|ed)?|hate[sd]?|prefer(?:s|red)?|adore[sd]?|dislike[sd]?|obsessed|allergic|into)\b(?!\s+(?:this|that|it|these|those|your|how|what|when|the way|the idea|hearing|seeing|to see|to hear)\b)|\bcan(?:'|’|no)t stand\b|\bfavou?rites?\b|\b(?:a )?(?:big |huge )?fan of\b|\b(?:vegetarian|vegan)\b/i,
  // Plans and obligations.
  /\b(?:i|we|he|she|they)(?:'ll|’ll| will| shall|'m going to|’m going to| am going to|'re going to|’re going to| are going to| is going to|'m gonna| plan(?:s|ning)? to| intend to| hope to|'m planning|’m planning| are planning)\b|\b(?:need to|needs to|have to|has to)\b|\b(?:next|this coming|upcoming)\s+(?:week(?:end)?|month|year|summer|winter|spring|fall|autumn|monday|tuesday|wednesday|thursday|friday|saturday|sunday|trip|time)\b|\b(?:tomorrow|tonight)\b/i,
  // Changes of state and things done.
  /\b(?:moved|moving to|started|adopted|adopting|broke|broken|finished|completed|bought|sold|joined|quit|graduated|married|engaged|divorced|retired|hired|promoted|fired|lost|won|born|passed away|signed up|enrolled|visited|went to|travell?ed|took up|learned|learnt|opened|launched|built|painted|wrote|published|ran (?:a|the|my)|volunteer(?:ed|ing)|got (?:a|an|my|into|back|married|engaged|accepted)|new (?:job|house|home|car|apartment|flat|place|role|position)|pregnant|injured|surgery|diagnosed|recovered|accident)\b/i,
  // Times and dates (numbers and weekdays count as entities already).
  /\b(?:January|February|March|April|May|June|July|August|September|October|November|December)\b|\b(?:last|past|previous)\s+(?:week(?:end)?|month|year|night|summer|winter|spring|fall|autumn|time)\b|\b(?:yesterday|ago)\b/,
];

/** How many kinds of fact cue (people, preference, plan, change of state, time) `sentence` has. */
export function countFactCues(sentence: string): number {
  let cues = 0;
  for (const cue of CUES) if (cue.test(sentence)) cues++;
  return cues;
}
