import { prepJoin, type RulePattern, runsBusiness, set } from './rule-pattern.ts';

/** German statements about oneself (word order after `jetzt`/`inzwischen` included). */

const words = (s: string) => new Set(s.split(/\s+/).filter((w) => w.length > 0));
const both = (s: string) => s.split(/\s+/).flatMap((w) => (w.length === 0 ? [] : [w, `${w}in`]));

export const DE_JOBS = new Set([
  ...both(`lehrer arzt ingenieur entwickler softwareentwickler programmierer designer student
    verkäufer bäcker architekt journalist rentner polizist buchhalter manager berater elektriker
    apotheker physiker chemiker biologe informatiker mechaniker schreiner tischler maler
    fotograf übersetzer dolmetscher psychologe therapeut kellner friseur pilot fahrer landwirt
    bauer musiker künstler schauspieler sänger trainer professor forscher wissenschaftler
    unternehmer gründer grafiker redakteur autor schriftsteller richter notar steuerberater
    zahnarzt tierarzt krankenpfleger altenpfleger pfleger sozialarbeiter erzieher bibliothekar
    kaufmann angestellter beamter soldat feuerwehrmann handwerker installateur gärtner
    datenwissenschaftler doktorand`),
  'ärztin',
  'anwalt',
  'anwältin',
  'köchin',
  'koch',
  'krankenschwester',
  'hausfrau',
  'hausmann',
  'beamtin',
  'angestellte',
  'kauffrau',
  'biologin',
  'psychologin',
  'zahnärztin',
  'tierärztin',
]);

const DIETS =
  'vegetarier/vegetarierin/veganer/veganerin/vegan/vegetarisch/pescetarier/pescetarierin';

/** Businesses someone runs. */
const BUSINESSES = words(
  `bäckerei café cafe restaurant laden geschäft firma friseursalon salon praxis kanzlei werkstatt bar kneipe hotel pension buchhandlung agentur startup studio bauernhof hof weingut konditorei metzgerei blumenladen boutique imbiss unternehmen betrieb`,
);

export const DE_PATTERNS: RulePattern[] = [
  {
    lang: 'de',
    say: 'ich führe|ich betreibe|ich leite|ich besitze',
    slot: 'thing',
    build: runsBusiness('Führt', BUSINESSES),
  },
  {
    lang: 'de',
    say: 'ich heiße/heisse|heiße/heisse ich|mein name ist|mein name lautet|mein vorname ist|nenn/nennt/nennen mich|man nennt mich',
    slot: 'name',
    build: (m) => set('name', `Heißt ${m.value}.`, m.value),
  },
  {
    lang: 'de',
    say: 'ich bin der/die?|hier ist der/die?|hier spricht',
    slot: 'name',
    greeting: true,
    build: (m) => set('name', `Heißt ${m.value}.`, m.value),
  },
  {
    lang: 'de',
    say: 'ich wohne/lebe in/im|wohne/lebe ich in/im|wir wohnen/leben in/im|wohnen/leben wir in/im|mein wohnort ist',
    slot: 'place',
    build: (m) =>
      set('location', `Wohnt ${prepJoin(m.prep === 'ist' ? 'in' : m.prep, m.value)}.`, m.value),
  },
  {
    lang: 'de',
    say: 'ich bin nach|wir sind nach|bin ich nach|ich ziehe gerade nach',
    slot: 'place',
    followedBy: words('gezogen umgezogen'),
    build: (m) => set('location', `Wohnt in ${m.value}.`, m.value),
  },
  {
    lang: 'de',
    say: 'ich komme/stamme aus|komme/stamme ich aus|ich komme ursprünglich aus|ursprünglich komme ich aus|meine heimat ist',
    slot: 'place',
    build: (m) => set('origin', `Kommt aus ${m.value}.`, m.value),
  },
  {
    lang: 'de',
    say: 'ich bin in|ich wurde in',
    slot: 'place',
    followedBy: words('geboren aufgewachsen'),
    build: (m) => set('origin', `Kommt aus ${m.value}.`, m.value),
  },
  {
    lang: 'de',
    say: 'ich arbeite bei/für|arbeite ich bei/für|ich bin angestellt bei|ich habe einen job bei|mein arbeitgeber ist',
    slot: 'org',
    build: (m) => set('employer', `Arbeitet bei ${m.value}.`, m.value),
  },
  {
    lang: 'de',
    say: 'ich arbeite als|arbeite ich als|ich bin von beruf|von beruf bin ich|mein beruf ist',
    slot: 'job-free',
    build: (m) => set('occupation', `Arbeitet als ${m.value}.`, m.value),
  },
  {
    lang: 'de',
    say: 'ich bin|bin ich',
    slot: 'job',
    jobs: DE_JOBS,
    build: (m) => set('occupation', `Ist ${m.value}.`, m.value),
    after: [
      {
        slot: 'org',
        preps: words('bei für'),
        build: (org) => set('employer', `Arbeitet bei ${org}.`, org),
      },
    ],
  },
  {
    lang: 'de',
    say: 'meine frau/tochter/freundin/partnerin/mutter/schwester heißt/heisse|mein mann/sohn/freund/partner/vater/bruder heißt/heisse',
    slot: 'name',
    build: (m) =>
      set(
        `family:${m.words[1]}`,
        `${m.words[1] === undefined ? '' : cap(m.words[1])} heißt ${m.value}.`,
        m.value,
      ),
  },
  {
    lang: 'de',
    say: 'mein hund/kater heißt/heisse|meine katze heißt/heisse|ich habe einen hund/kater namens|ich habe eine katze namens',
    slot: 'name',
    build: (m) => {
      const pet = m.words.find((w) => ['hund', 'kater', 'katze'].includes(w)) ?? 'haustier';
      return set(
        `pet:${pet}`,
        `Hat ${pet === 'katze' ? 'eine Katze' : `einen ${cap(pet)}`} namens ${m.value}.`,
        m.value,
      );
    },
  },
  {
    lang: 'de',
    say: 'wohne/lebe in/im|arbeite bei/für|komme aus',
    slot: 'place',
    subjectless: true,
    build: (m) =>
      m.words[0] === 'komme'
        ? set('origin', `Kommt aus ${m.value}.`, m.value)
        : m.words[0] === 'arbeite'
          ? set('employer', `Arbeitet bei ${m.value}.`, m.value)
          : set('location', `Wohnt ${prepJoin(m.prep, m.value)}.`, m.value),
  },
  {
    lang: 'de',
    say: 'ich trinke/esse/höre/lese lieber|trinke/esse ich lieber',
    slot: 'thing',
    build: (m) => {
      const verb: Record<string, string> = {
        trinke: 'Trinkt',
        esse: 'Isst',
        höre: 'Hört',
        lese: 'Liest',
      };
      return set(
        `preference:${m.key}`,
        `${verb[m.words[1] ?? ''] ?? verb[m.words[0] ?? ''] ?? 'Mag'} lieber ${m.value}.`,
        m.value,
      );
    },
  },
  {
    lang: 'de',
    say: 'ich mag|mag ich|ich esse/trinke/höre gern/gerne|ich liebe|liebe ich|ich hasse|ich bevorzuge|ich mag kein/keine/keinen',
    slot: 'thing',
    build: (m) => {
      const verb = m.words[1] ?? '';
      const neg = m.negated || m.words.some((w) => w.startsWith('kein'));
      if (neg) return set(`preference:${m.key}`, `Mag ${m.value} nicht.`, m.value);
      const text: Record<string, string> = {
        mag: 'Mag',
        liebe: 'Liebt',
        hasse: 'Hasst',
        bevorzuge: 'Bevorzugt',
        esse: 'Isst gern',
        trinke: 'Trinkt gern',
        höre: 'Hört gern',
      };
      return set(
        `preference:${m.key}`,
        `${text[verb] ?? text[m.words[0] ?? ''] ?? 'Mag'} ${m.value}.`,
        m.value,
      );
    },
  },
  {
    lang: 'de',
    say: 'ich bin allergisch gegen/auf|ich habe eine allergie gegen|ich vertrage kein/keine/keinen',
    slot: 'thing',
    build: (m) => set(`allergy:${m.key}`, `Ist allergisch gegen ${m.value}.`, m.value),
  },
  {
    lang: 'de',
    say: `ich bin ${DIETS}|ich esse vegetarisch/vegan|ich lebe vegan/vegetarisch`,
    slot: 'none',
    build: (m) => {
      const diet = m.words.at(-1) ?? '';
      return set(
        'diet',
        `Ist ${diet.startsWith('vegetarisch') || diet === 'vegan' ? diet : cap(diet)}.`,
        diet,
      );
    },
  },
  {
    lang: 'de',
    say: 'merk/merke dir dass?|merk/merke dir bitte dass?|bitte merk/merke dir dass?|merken sie sich dass?|vergiss nicht dass?|bitte vergiss nicht dass?|denk daran dass?|denke daran dass?|behalte im kopf dass?',
    slot: 'rest',
    request: true,
    build: (m) =>
      set(`remember:${m.key.slice(0, 60)}`, `Bat, sich zu merken: ${m.value}.`, m.value),
  },
  {
    lang: 'de',
    say: 'vergiss dass|vergiss bitte dass|bitte vergiss dass',
    slot: 'rest',
    request: true,
    forget: true,
    build: () => undefined,
  },
  {
    lang: 'de',
    say: 'ich wohne/lebe nicht mehr in/im|ich wohne/lebe nicht in/im|wohne/lebe ich nicht mehr in',
    slot: 'place',
    build: (m) => ({ kind: 'retract', about: 'location', value: m.value }),
  },
  {
    lang: 'de',
    say: 'ich arbeite nicht mehr bei/für|ich arbeite nicht bei/für',
    slot: 'org',
    build: (m) => ({ kind: 'retract', about: 'employer', value: m.value }),
  },
  {
    lang: 'de',
    say: `ich bin kein/keine ${DIETS} mehr|ich bin nicht mehr ${DIETS}|ich habe meinen job verloren|ich bin arbeitslos|ich bin in rente`,
    slot: 'none',
    build: (m) => ({
      kind: 'retract',
      about: m.words.some((w) => DIETS.includes(w)) ? 'diet' : 'employer',
    }),
  },
];

function cap(w: string): string {
  return w.charAt(0).toUpperCase() + w.slice(1);
}
