import { prepJoin, type RulePattern, runsBusiness, set } from './rule-pattern.ts';

/** French statements about oneself (elisions expanded: `j'habite` is `je habite`). */

const words = (s: string) => new Set(s.split(/\s+/).filter((w) => w.length > 0));

export const FR_JOBS = words(`
  professeur professeure prof enseignant enseignante instituteur institutrice médecin docteur
  ingénieur ingénieure développeur développeuse programmeur programmeuse infirmier infirmière
  avocat avocate étudiant étudiante architecte journaliste cuisinier cuisinière chef boulanger
  boulangère comptable designer graphiste retraité retraitée vendeur vendeuse pharmacien
  pharmacienne policier policière chercheur chercheuse plombier électricien serveur serveuse
  dentiste vétérinaire photographe écrivain écrivaine auteur autrice traducteur traductrice
  consultant consultante psychologue kinésithérapeute kiné musicien musicienne artiste
  pilote chauffeur agriculteur agricultrice mécanicien mécanicienne coiffeur coiffeuse
  secrétaire assistante assistant stagiaire entrepreneur entrepreneuse fondateur fondatrice
  directeur directrice manager gérant gérante juriste notaire banquier banquière fonctionnaire
  militaire pompier pompière chercheur data scientist doctorant doctorante sage-femme
  infographiste libraire bibliothécaire éducateur éducatrice`);

const PREP = 'à/au/aux/en/dans';
const DIETS =
  'végétarien/végétarienne/végétalien/végétalienne/végane/vegan/vegane/pescetarien/pescétarien';

/** Businesses someone runs. */
const BUSINESSES = words(
  `boulangerie café restaurant boutique magasin salon cabinet entreprise société agence bar librairie hôtel ferme atelier pâtisserie épicerie fleuriste start-up startup bistrot crêperie`,
);

export const FR_PATTERNS: RulePattern[] = [
  {
    lang: 'fr',
    say: 'je tiens|je gère|je dirige|je possède|je ai ouvert',
    slot: 'thing',
    build: runsBusiness('Tient', BUSINESSES),
  },
  {
    lang: 'fr',
    say: 'je me appelle|mon nom est|mon prénom est|mon nom ce est|appelle moi|appelez moi|on me appelle|moi ce est',
    slot: 'name',
    build: (m) => set('name', `S'appelle ${m.value}.`, m.value),
  },
  {
    lang: 'fr',
    say: 'je suis|ce est|ici',
    slot: 'name',
    greeting: true,
    build: (m) => set('name', `S'appelle ${m.value}.`, m.value),
  },
  {
    lang: 'fr',
    say: `je habite ${PREP}|je vis ${PREP}|je ai déménagé ${PREP}|je me suis installé/installée ${PREP}|nous habitons ${PREP}|nous vivons ${PREP}|on habite ${PREP}|on vit ${PREP}|nous avons déménagé ${PREP}`,
    slot: 'place',
    build: (m) => set('location', `Habite ${prepJoin(m.prep, m.value)}.`, m.value),
  },
  {
    lang: 'fr',
    say: 'je viens de/du/des|je suis de/du|je suis originaire de/du/des|je suis né/née à/en/au|je ai grandi à/en/au',
    slot: 'place',
    capOnly: true,
    build: (m) =>
      set(
        'origin',
        `Vient ${prepJoin(['à', 'en', 'au'].includes(m.prep) ? 'de' : m.prep, m.value)}.`,
        m.value,
      ),
  },
  {
    lang: 'fr',
    say: 'je travaille chez/pour|je bosse chez/pour|je suis employé/employée chez|je suis salarié/salariée chez|mon employeur est|je viens de rejoindre|je ai rejoint',
    slot: 'org',
    build: (m) => set('employer', `Travaille chez ${m.value}.`, m.value),
  },
  {
    lang: 'fr',
    say: 'je travaille comme|je travaille en tant que|je bosse comme|mon métier est|je suis de profession|de profession je suis',
    slot: 'job-free',
    build: (m) => set('occupation', `Travaille comme ${m.value}.`, m.value),
  },
  {
    lang: 'fr',
    say: 'je suis',
    slot: 'job',
    jobs: FR_JOBS,
    build: (m) => set('occupation', `Est ${m.value}.`, m.value),
    after: [
      {
        slot: 'org',
        preps: words('chez pour'),
        build: (org) => set('employer', `Travaille chez ${org}.`, org),
      },
    ],
  },
  {
    lang: 'fr',
    say: 'ma femme/fille/copine/compagne/mère/sœur/soeur se appelle|mon mari/fils/copain/compagnon/père/frère se appelle',
    slot: 'name',
    build: (m) =>
      set(
        `family:${m.words[1]}`,
        `${m.words[0] === 'ma' ? 'Sa' : 'Son'} ${m.words[1]} s'appelle ${m.value}.`,
        m.value,
      ),
  },
  {
    lang: 'fr',
    say: 'mon chien/chat se appelle|ma chienne/chatte se appelle|je ai un chien/chat qui se appelle|je ai une chienne/chatte qui se appelle',
    slot: 'name',
    build: (m) => {
      const pet = m.words.find((w) => w.startsWith('chi') || w.startsWith('chat')) ?? 'animal';
      return set(
        `pet:${pet}`,
        `A ${pet.endsWith('e') ? 'une' : 'un'} ${pet} nommé${pet.endsWith('e') ? 'e' : ''} ${m.value}.`,
        m.value,
      );
    },
  },
  {
    lang: 'fr',
    say: 'je aime|je adore|je déteste|je préfère|je ne aime pas|je ne aime plus|je ne supporte pas|je ai horreur de/du/des',
    slot: 'thing',
    build: (m) => {
      const w = m.words;
      const text = w.includes('ne')
        ? w.includes('plus')
          ? `N'aime plus ${m.value}.`
          : `N'aime pas ${m.value}.`
        : w.includes('horreur') || w.includes('déteste')
          ? `Déteste ${m.value}.`
          : w.includes('adore')
            ? `Adore ${m.value}.`
            : w.includes('préfère')
              ? `Préfère ${m.value}.`
              : `Aime ${m.value}.`;
      return set(`preference:${m.key}`, text, m.value);
    },
  },
  {
    lang: 'fr',
    say: 'je suis allergique à/au/aux|je ai une allergie à/au/aux',
    slot: 'thing',
    build: (m) => set(`allergy:${m.key}`, `Est allergique ${prepJoin(m.prep, m.value)}.`, m.value),
  },
  {
    lang: 'fr',
    say: `je suis ${DIETS}|je mange végétarien/végan/vegan`,
    slot: 'none',
    build: (m) => set('diet', `Est ${m.words.at(-1)}.`, m.words.at(-1) ?? ''),
  },
  {
    lang: 'fr',
    say: 'souviens toi que|souvenez vous que|rappelle toi que|rappelez vous que|retiens que|retenez que|ne oublie pas que|ne oubliez pas que|garde en tête que|garde à le esprit que|note bien que|peux tu retenir que|pourrais tu retenir que|retiens bien que',
    slot: 'rest',
    request: true,
    build: (m) =>
      set(`remember:${m.key.slice(0, 60)}`, `A demandé de retenir : ${m.value}.`, m.value),
  },
  {
    lang: 'fr',
    say: 'oublie que|oubliez que',
    slot: 'rest',
    request: true,
    forget: true,
    build: () => undefined,
  },
  {
    lang: 'fr',
    say: `je ne habite plus ${PREP}|je ne vis plus ${PREP}|je ne habite pas ${PREP}`,
    slot: 'place',
    build: (m) => ({ kind: 'retract', about: 'location', value: m.value }),
  },
  {
    lang: 'fr',
    say: 'je ne travaille plus chez/pour|je ai quitté|je ne travaille pas chez/pour',
    slot: 'org',
    build: (m) => ({ kind: 'retract', about: 'employer', value: m.value }),
  },
  {
    lang: 'fr',
    say: `je ne suis plus ${DIETS}|je ai perdu mon travail/emploi/boulot|je suis au chômage|je suis à la retraite`,
    slot: 'none',
    build: (m) => ({
      kind: 'retract',
      about: m.words.includes('plus') && !m.words.includes('travail') ? 'diet' : 'employer',
    }),
  },
];
