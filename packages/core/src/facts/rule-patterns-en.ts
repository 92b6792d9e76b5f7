import { channelOf } from './rule-contact.ts';
import { type PatternMatch, type RulePattern, set, withArticle } from './rule-pattern.ts';

/** English statements about oneself. */

const words = (s: string) => new Set(s.split(/\s+/).filter((w) => w.length > 0));

export const EN_JOBS = words(`
  engineer developer programmer teacher nurse doctor physician surgeon dentist lawyer attorney
  accountant architect designer student researcher scientist professor lecturer manager
  consultant analyst writer journalist editor author artist musician photographer chef cook
  baker waiter waitress bartender barista pharmacist therapist psychologist psychiatrist
  electrician plumber carpenter mechanic pilot driver farmer firefighter paramedic
  veterinarian vet librarian translator interpreter economist entrepreneur founder ceo cto
  cfo freelancer contractor tester administrator sysadmin technician officer soldier
  police policeman policewoman cop clerk cashier salesman saleswoman realtor agent banker
  trader investor actor actress dancer singer composer coach trainer tutor principal midwife
  optometrist radiologist biologist chemist physicist mathematician statistician
  retiree pensioner homemaker housewife caregiver carer cleaner janitor receptionist secretary
  assistant intern apprentice welder machinist builder gardener fisherman butcher tailor
  hairdresser barber nanny pastor priest rabbi imam judge paralegal surveyor geologist
  pharmacologist nutritionist dietitian physiotherapist chiropractor counselor counsellor
  recruiter marketer copywriter animator illustrator filmmaker producer director
  researcher postdoc phd`);

const RELATIONS =
  'wife/husband/partner/son/daughter/boyfriend/girlfriend/fiance/fiancee/mom/mother/dad/father/brother/sister/baby/kid/child/spouse';
const PETS = 'dog/cat/puppy/kitten/parrot/rabbit/hamster/horse/bird/turtle/fish/bunny';
/** Breeds and the animal they are (`a golden retriever called Biscuit` is a dog). */
const BREEDS: Record<string, string> = Object.fromEntries([
  ...`retriever labrador lab poodle terrier spaniel collie beagle shepherd husky dachshund pug
  bulldog corgi greyhound whippet schnauzer rottweiler doberman boxer chihuahua pointer setter
  sheepdog mutt doodle labradoodle cockapoo`
    .split(/\s+/)
    .map((b) => [b, 'dog']),
  ...'tabby siamese persian ragdoll bengal'.split(' ').map((b) => [b, 'cat']),
]);
const PET_WORDS = `${PETS}/${Object.keys(BREEDS).join('/')}`;
const PET_LOOKS =
  'golden/black/yellow/chocolate/white/grey/gray/brown/ginger/red/border/german/english/french/jack/cocker/springer/old/little/big/young/rescue/rescued/miniature/mini/toy/long-haired/short-haired/fluffy/orange';
/** Businesses someone runs (`i run a small bakery`). */
const BUSINESSES = words(`bakery cafe café coffeeshop restaurant bistro bar pub shop store boutique
  salon business company startup start-up agency firm studio clinic practice farm vineyard winery
  hotel hostel guesthouse b&b bookshop bookstore gym kitchen nursery daycare kindergarten school
  brewery distillery garage workshop consultancy charity nonprofit non-profit foundation
  restaurants shops franchise blog podcast newsletter channel bakeshop florist pharmacy`);
const their = (value: string) => value.replace(/^(?:my|our)\b/i, 'their');
const business = (m: PatternMatch) =>
  /^(?:my|our|the)\b/i.test(m.value) ? their(m.value) : withArticle(m.value);
/** `email over phone calls`: a contact preference when both are channels. */
function preferred(m: PatternMatch, verb: string) {
  const channel = channelOf(m.value);
  const other = m.other === undefined ? undefined : (channelOf(m.other) ?? m.other);
  if (channel !== undefined) {
    const text =
      other === undefined
        ? `Prefers to be contacted by ${channel}.`
        : `Prefers ${channel} over ${other}.`;
    return set('preference:contact', text, channel);
  }
  const text =
    m.other === undefined ? `${verb} ${m.value}.` : `${verb} ${m.value} over ${m.other}.`;
  return set(`preference:${m.key}`, text, m.value);
}
const AT = new Set(['at', 'for', 'with']);
const AS = new Set(['as']);
const FROM = new Set(['from']);

export const EN_PATTERNS: RulePattern[] = [
  {
    lang: 'en',
    say: 'my name is|my first name is|my full name is|call me|you can call me|please call me|people call me|everyone calls me|i go by|i am called',
    slot: 'name',
    build: (m) => set('name', `Name is ${m.value}.`, m.value),
  },
  {
    lang: 'en',
    say: 'i am|this is|im',
    slot: 'name',
    greeting: true,
    build: (m) => set('name', `Name is ${m.value}.`, m.value),
  },
  {
    lang: 'en',
    say: 'i am',
    slot: 'name',
    capOnly: true,
    followedBy: new Set(['by', 'btw', 'here', 'and']),
    build: (m) => set('name', `Name is ${m.value}.`, m.value),
  },
  {
    lang: 'en',
    say: 'i am',
    slot: 'name',
    capOnly: true,
    opening: true,
    build: (m) => set('name', `Name is ${m.value}.`, m.value),
  },
  {
    lang: 'en',
    say: "my/our twins/kids/children/sons/daughters/boys/girls are named/called|my/our twins/kids/children/sons/daughters/boys/girls names are|my/our twins/kids/children/sons/daughters/boys/girls 's names are",
    slot: 'names',
    build: (m) => {
      const rel = m.words[1] ?? 'children';
      return set(`family:${rel}`, `Has ${rel} named ${m.value}.`, m.value);
    },
  },
  {
    lang: 'en',
    say: `i/we have got? a/an ${PET_LOOKS}? ${PET_LOOKS}? ${PET_WORDS} named/called|i/we adopted/rescued/got a/an ${PET_LOOKS}? ${PET_LOOKS}? ${PET_WORDS} named/called|my/our ${PET_LOOKS}? ${PET_LOOKS}? ${PET_WORDS} is named/called`,
    slot: 'name',
    build: (m) => {
      const k = m.words.findIndex((w) => Object.hasOwn(BREEDS, w) || PETS.split('/').includes(w));
      const animal = m.words[k] ?? 'pet';
      const pet = Object.hasOwn(BREEDS, animal) ? (BREEDS[animal] as string) : animal;
      const a = m.words.findIndex((w) => w === 'a' || w === 'an' || w === 'my' || w === 'our');
      const looks = m.words.slice(a + 1, k + 1).join(' ');
      return set(`pet:${pet}`, `Has ${withArticle(looks)} named ${m.value}.`, m.value);
    },
  },
  {
    lang: 'en',
    say: 'i run|i own|i manage|i co-own|we run|we own',
    slot: 'job',
    jobs: BUSINESSES,
    build: (m) => set('occupation', `Runs ${business(m)}.`, m.value),
  },
  {
    lang: 'en',
    say: 'we are in|we are based in|we are living in|we are located in|we are now in|we live just outside|we live near',
    slot: 'place',
    capOnly: true,
    // `we're in Q3`, `we're in Sprint 12`: a number is not where someone lives.
    build: (m) =>
      /\d/.test(m.value)
        ? undefined
        : set(
            'location',
            `Lives ${m.words.find((w) => w === 'near' || w === 'outside') ?? 'in'} ${m.value}.`,
            m.value,
          ),
  },
  {
    lang: 'en',
    say: 'keep in mind|please keep in mind|bear in mind|please bear in mind|just so you know|for the record',
    slot: 'rest',
    innerOnly: true,
    build: () => undefined,
  },
  {
    lang: 'en',
    say: 'i would rather|i would much rather|i would prefer|i much prefer|i would much prefer',
    slot: 'choice',
    needsOther: true,
    build: (m) => preferred(m, 'Prefers'),
  },
  {
    lang: 'en',
    say: 'name is|first name is',
    slot: 'name',
    subjectless: true,
    build: (m) => set('name', `Name is ${m.value}.`, m.value),
  },
  {
    lang: 'en',
    say: `my/our ${'wife/husband/partner/son/daughter/boyfriend/girlfriend/fiance/fiancee/spouse'}`,
    slot: 'name',
    capOnly: true,
    build: (m) => set(`family:${m.words[1]}`, `Has a ${m.words[1]} named ${m.value}.`, m.value),
  },
  {
    lang: 'en',
    say: 'my/our dog/cat/puppy/kitten/parrot/rabbit/hamster/horse/bunny',
    slot: 'name',
    capOnly: true,
    build: (m) => set(`pet:${m.words[1]}`, `Has a ${m.words[1]} named ${m.value}.`, m.value),
  },
  {
    lang: 'en',
    say: 'i teach',
    slot: 'job-free',
    build: (m) => set('occupation', `Teaches ${m.value}.`, m.value),
    after: [
      {
        slot: 'org',
        preps: new Set(['at']),
        build: (org) => set('employer', `Works at ${org}.`, org),
      },
    ],
  },
  {
    lang: 'en',
    say: 'i live in|i am living in|i reside in|i moved to|i have moved to|i relocated to|i have relocated to|i am based in|i have been living in|we live in|we moved to|we have moved to|i settled in|i have settled in|my home is in|i live near|i live outside|i live just outside',
    slot: 'place',
    build: (m) =>
      set(
        'location',
        `Lives ${m.words.find((w) => w === 'near' || w === 'outside') ?? 'in'} ${m.value}.`,
        m.value,
      ),
  },
  {
    lang: 'en',
    say: 'i am from|i come from|i am originally from|i originally come from|i was born in|i grew up in|i was raised in|i was born and raised in|my hometown is',
    slot: 'place',
    build: (m) => set('origin', `Is from ${m.value}.`, m.value),
  },
  {
    lang: 'en',
    say: 'i work at|i work for|i am working at|i am working for|i am employed at|i am employed by|i have a job at|i got a job at|i have worked at|i have worked for|i have been working at|i have been working for|i have been at|i started working at|i started working for|i have started working at|i just joined|i joined',
    slot: 'org',
    build: (m) => set('employer', `Works at ${m.value}.`, m.value),
    after: [
      {
        slot: 'job-free',
        preps: AS,
        build: (job) => set('occupation', `Works as ${withArticle(job)}.`, job),
      },
    ],
  },
  {
    lang: 'en',
    say: 'just/recently/finally? moved to|live in|living in|based in',
    slot: 'place',
    capOnly: true,
    subjectless: true,
    build: (m) => set('location', `Lives in ${m.value}.`, m.value),
  },
  {
    lang: 'en',
    say: 'originally from|born and raised in|grew up in',
    slot: 'place',
    capOnly: true,
    subjectless: true,
    build: (m) => set('origin', `Is from ${m.value}.`, m.value),
  },
  {
    lang: 'en',
    say: 'work at|work for|working at|working for|been working at|been working for',
    slot: 'org',
    capOnly: true,
    subjectless: true,
    build: (m) => set('employer', `Works at ${m.value}.`, m.value),
  },
  {
    lang: 'en',
    say: 'i work as|i am working as|i am employed as|my job title is|my profession is|i started working as|i got a job as|by profession i am',
    slot: 'job-free',
    build: (m) => set('occupation', `Works as ${withArticle(m.value)}.`, m.value),
  },
  {
    lang: 'en',
    say: 'i am|my job is|i work as|by trade i am',
    slot: 'job',
    jobs: EN_JOBS,
    build: (m) => set('occupation', `Is ${withArticle(m.value)}.`, m.value),
    after: [
      { slot: 'org', preps: AT, build: (org) => set('employer', `Works at ${org}.`, org) },
      { slot: 'place', preps: FROM, build: (place) => set('origin', `Is from ${place}.`, place) },
    ],
  },
  {
    lang: 'en',
    say: `my ${RELATIONS} is called|my ${RELATIONS} is named|my ${RELATIONS} 's name is|my ${RELATIONS} name is|i am married to|i have a ${RELATIONS} named|i have a ${RELATIONS} called`,
    slot: 'name',
    build: (m) => {
      const rel = m.words.includes('married')
        ? 'spouse'
        : (m.words.find((w) => RELATIONS.split('/').includes(w)) ?? 'family');
      const text = m.words.includes('married')
        ? `Is married to ${m.value}.`
        : `Has a ${rel} named ${m.value}.`;
      return set(`family:${rel}`, text, m.value);
    },
  },
  {
    lang: 'en',
    say: `i have a ${PETS} named|i have a ${PETS} called|i have got a ${PETS} named|i have got a ${PETS} called|my ${PETS} is called|my ${PETS} is named|my ${PETS} 's name is|we have a ${PETS} named|we have a ${PETS} called`,
    slot: 'name',
    build: (m) => {
      const pet = m.words.find((w) => PETS.split('/').includes(w)) ?? 'pet';
      return set(`pet:${pet}`, `Has a ${pet} named ${m.value}.`, m.value);
    },
  },
  {
    lang: 'en',
    say: 'i prefer',
    slot: 'choice',
    build: (m) => preferred(m, 'Prefers'),
  },
  {
    lang: 'en',
    say: 'i like|i enjoy|i am into|i am a big/huge/great? fan of|i have a soft spot for',
    slot: 'thing',
    build: (m) => set(`preference:${m.key}`, `Likes ${m.value}.`, m.value),
  },
  {
    lang: 'en',
    say: 'i love|i adore',
    slot: 'thing',
    build: (m) => set(`preference:${m.key}`, `Loves ${m.value}.`, m.value),
  },
  {
    lang: 'en',
    say: 'i hate|i can not stand|i detest|i loathe|i dislike|i do not like|i do not enjoy|i am not a big/huge/great? fan of|i am not really a fan of|i am not into|i no longer like|i do not love',
    slot: 'thing',
    build: (m) =>
      set(
        `preference:${m.key}`,
        m.noLonger ? `No longer likes ${m.value}.` : `Dislikes ${m.value}.`,
        m.value,
      ),
  },
  {
    lang: 'en',
    say: "my favorite/favourite color/colour/food/drink/movie/film/book/band/song/sport/team/game/animal/dish/music/artist/singer/author/season/city/place/show/series/restaurant/fruit is|my favorite/favourite color/colour/food/drink/movie/film/book/band/song/sport/team/game/animal/dish/music/artist/singer/author/season/city/place/show/series/restaurant/fruit 's",
    slot: 'thing',
    build: (m) => set(`favorite:${m.words[2]}`, `Favorite ${m.words[2]} is ${m.value}.`, m.value),
  },
  {
    lang: 'en',
    say: 'i am allergic to|i have an allergy to|i am intolerant to',
    slot: 'thing',
    build: (m) => set(`allergy:${m.key}`, `Is allergic to ${m.value}.`, m.value),
  },
  {
    lang: 'en',
    say: 'i am lactose/gluten intolerant|i am celiac/coeliac|i have celiac/coeliac disease',
    slot: 'none',
    build: (m) => {
      const what = m.words.includes('lactose') ? 'lactose' : 'gluten';
      return set(
        `allergy:${what}`,
        what === 'lactose' ? 'Is lactose intolerant.' : 'Cannot eat gluten.',
        what,
      );
    },
  },
  {
    lang: 'en',
    say: 'i am a? vegetarian/vegan/pescatarian/pescetarian|i have been a? vegetarian/vegan/pescatarian|i went vegetarian/vegan|i eat vegetarian/vegan',
    slot: 'none',
    build: (m) => {
      const diet = m.words.at(-1) ?? '';
      return set('diet', `Is ${diet}.`, diet);
    },
  },
  {
    lang: 'en',
    say: 'i do not eat|i never eat|i no longer eat|i stopped eating|i can not eat',
    slot: 'thing',
    build: (m) => set(`diet:${m.key}`, `Does not eat ${m.value}.`, m.value),
  },
  {
    lang: 'en',
    say: 'remember that|please remember that|remember|please remember|do not forget that|please do not forget that|never forget that|keep in mind that|please keep in mind that|bear in mind that|please bear in mind that|please note that|make a note that|can/could/will/would you remember that|can/could/will/would you please remember that|can/could/will/would you remember|note for the future|for future reference',
    slot: 'rest',
    request: true,
    build: (m) => set(`remember:${m.key.slice(0, 60)}`, `Asked to remember: ${m.value}.`, m.value),
  },
  {
    lang: 'en',
    say: 'forget that|please forget that|forget about|please forget about|forget what i said about|forget what i told you about|can/could you forget that',
    slot: 'rest',
    request: true,
    forget: true,
    build: () => undefined,
  },
  {
    lang: 'en',
    say: 'i do not live in|i no longer live in|i have moved away from|i moved away from|i moved out of|i have moved out of|i left|i do not live near',
    slot: 'place',
    build: (m) => ({ kind: 'retract', about: 'location', value: m.value }),
  },
  {
    lang: 'en',
    say: 'i do not work at|i do not work for|i no longer work at|i no longer work for|i left|i quit|i have left|i stopped working at|i stopped working for|i got fired from|i was fired from|i was laid off from|i resigned from',
    slot: 'org',
    build: (m) => ({ kind: 'retract', about: 'employer', value: m.value }),
  },
  {
    lang: 'en',
    say: 'i quit my job|i lost my job|i got fired|i was fired|i was laid off|i got laid off|i am unemployed|i am between jobs|i do not have a job|i retired|i have retired|i am retired',
    slot: 'none',
    build: () => ({ kind: 'retract', about: 'employer' }),
  },
  {
    lang: 'en',
    say: 'i am not a? vegetarian/vegan/pescatarian|i am no longer a? vegetarian/vegan/pescatarian|i stopped being a? vegetarian/vegan/pescatarian|i eat meat',
    slot: 'none',
    build: () => ({ kind: 'retract', about: 'diet' }),
  },
];
