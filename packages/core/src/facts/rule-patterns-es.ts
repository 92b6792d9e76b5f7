import { prepJoin, type RulePattern, runsBusiness, set } from './rule-pattern.ts';

/** Spanish statements about oneself (the subject `yo` optional). */

const words = (s: string) => new Set(s.split(/\s+/).filter((w) => w.length > 0));
const both = (s: string) =>
  s
    .split(/\s+/)
    .flatMap((w) => (w.length === 0 ? [] : w.endsWith('o') ? [w, `${w.slice(0, -1)}a`] : [w]));

export const ES_JOBS = new Set([
  ...both(`maestro médico ingeniero enfermero abogado programador desarrollador diseñador
    arquitecto cocinero contador camarero jubilado vendedor veterinario farmacéutico
    fotógrafo psicólogo científico investigador traductor escritor consultor empresario
    fundador carpintero mecánico panadero cajero secretario bombero bibliotecario
    periodista profesor doctor técnico biólogo químico físico economista administrativo
    funcionario dentista electricista estudiante policía piloto chófer conductor agricultor
    peluquero músico artista actor gerente analista asistente becario`),
  'profesora',
  'doctora',
  'escritora',
  'traductora',
  'consultora',
  'investigadora',
  'actriz',
  'programadora',
  'desarrolladora',
  'diseñadora',
  'contadora',
  'vendedora',
  'empresaria',
  'chef',
  'fontanero',
  'fontanera',
  'enfermera',
]);

const DIETS = 'vegetariano/vegetariana/vegano/vegana/pescetariano/pescetariana';

/** Businesses someone runs. */
const BUSINESSES = words(
  `panadería cafetería restaurante tienda bar peluquería empresa negocio agencia librería hotel taller granja clínica pastelería floristería startup academia`,
);

export const ES_PATTERNS: RulePattern[] = [
  {
    lang: 'es',
    say: 'yo? tengo|yo? llevo|yo? dirijo|yo? regento|yo? gestiono|yo? abrí',
    slot: 'thing',
    build: runsBusiness('Tiene', BUSINESSES),
  },
  {
    lang: 'es',
    say: 'yo? me llamo|mi nombre es|llámame|llamame|puedes llamarme|me puedes llamar|me dicen|todos me llaman',
    slot: 'name',
    build: (m) => set('name', `Se llama ${m.value}.`, m.value),
  },
  {
    lang: 'es',
    say: 'yo? soy|aquí|habla',
    slot: 'name',
    greeting: true,
    build: (m) => set('name', `Se llama ${m.value}.`, m.value),
  },
  {
    lang: 'es',
    say: 'yo? vivo en|resido en|me mudé/mude a|me he mudado a|me acabo de mudar a|me fui a vivir a|vivimos en|nos mudamos a|nos hemos mudado a',
    slot: 'place',
    build: (m) => set('location', `Vive en ${m.value}.`, m.value),
  },
  {
    lang: 'es',
    say: 'yo? soy de|vengo de|nací en|crecí en|soy originario/originaria de|soy oriundo/oriunda de',
    slot: 'place',
    capOnly: true,
    build: (m) => set('origin', `Es de ${m.value}.`, m.value),
  },
  {
    lang: 'es',
    say: 'yo? trabajo en/para|estoy trabajando en/para|trabajo actualmente en|empecé a trabajar en/para',
    slot: 'org',
    build: (m) => set('employer', `Trabaja ${prepJoin(m.prep, m.value)}.`, m.value),
    after: [
      {
        slot: 'job-free',
        preps: new Set(['como']),
        build: (job) => set('occupation', `Trabaja como ${job}.`, job),
      },
    ],
  },
  {
    lang: 'es',
    say: 'yo? trabajo como/de|mi profesión es|mi trabajo es|de profesión soy',
    slot: 'job-free',
    build: (m) => set('occupation', `Trabaja como ${m.value}.`, m.value),
  },
  {
    lang: 'es',
    say: 'yo? soy',
    slot: 'job',
    jobs: ES_JOBS,
    build: (m) => set('occupation', `Es ${m.value}.`, m.value),
    after: [
      {
        slot: 'org',
        preps: words('en para'),
        build: (org, prep) => set('employer', `Trabaja ${prepJoin(prep, org)}.`, org),
      },
    ],
  },
  {
    lang: 'es',
    say: 'mi esposa/esposo/mujer/marido/hija/hijo/novia/novio/pareja/madre/padre/hermana/hermano se llama',
    slot: 'name',
    build: (m) => set(`family:${m.words[1]}`, `Su ${m.words[1]} se llama ${m.value}.`, m.value),
  },
  {
    lang: 'es',
    say: 'mi perro/perra/gato/gata se llama|tengo un perro/gato que se llama|tengo una perra/gata que se llama|tengo un perro/gato llamado|tengo una perra/gata llamada',
    slot: 'name',
    build: (m) => {
      const pet = m.words.find((w) => w.startsWith('perr') || w.startsWith('gat')) ?? 'mascota';
      return set(
        `pet:${pet}`,
        `Tiene ${pet.endsWith('a') ? 'una' : 'un'} ${pet} llamad${pet.endsWith('a') ? 'a' : 'o'} ${m.value}.`,
        m.value,
      );
    },
  },
  {
    lang: 'es',
    say: 'me gusta/gustan|me encanta/encantan|me fascina/fascinan|odio|detesto|prefiero|no me gusta/gustan|ya no me gusta/gustan|yo prefiero',
    slot: 'thing',
    build: (m) => {
      const w = m.words;
      const text = w.includes('ya')
        ? `Ya no le gusta ${m.value}.`
        : w.includes('no')
          ? `No le gusta ${m.value}.`
          : w.some((x) => x.startsWith('encanta') || x.startsWith('fascina'))
            ? `Le encanta ${m.value}.`
            : w.includes('odio') || w.includes('detesto')
              ? `Odia ${m.value}.`
              : w.includes('prefiero')
                ? `Prefiere ${m.value}.`
                : `Le gusta ${m.value}.`;
      return set(`preference:${m.key}`, text, m.value);
    },
  },
  {
    lang: 'es',
    say: 'soy alérgico/alérgica a/al|tengo alergia a/al',
    slot: 'thing',
    build: (m) => set(`allergy:${m.key}`, `Tiene alergia ${prepJoin(m.prep, m.value)}.`, m.value),
  },
  {
    lang: 'es',
    say: `yo? soy ${DIETS}`,
    slot: 'none',
    build: (m) => set('diet', `Es ${m.words.at(-1)}.`, m.words.at(-1) ?? ''),
  },
  {
    lang: 'es',
    say: 'recuerda que|recuerde que|acuérdate de? que|no olvides que|no olvide que|ten en cuenta que|tenga en cuenta que|toma nota de que|apunta que|por favor recuerda que|puedes recordar que',
    slot: 'rest',
    request: true,
    build: (m) => set(`remember:${m.key.slice(0, 60)}`, `Pidió recordar: ${m.value}.`, m.value),
  },
  {
    lang: 'es',
    say: 'olvida que|olvídate de que|olvida lo de que',
    slot: 'rest',
    request: true,
    forget: true,
    build: () => undefined,
  },
  {
    lang: 'es',
    say: 'ya no vivo en|no vivo más en|no vivo en|dejé de vivir en',
    slot: 'place',
    build: (m) => ({ kind: 'retract', about: 'location', value: m.value }),
  },
  {
    lang: 'es',
    say: 'ya no trabajo en/para|no trabajo en/para|dejé de trabajar en/para|renuncié a|me fui de',
    slot: 'org',
    build: (m) => ({ kind: 'retract', about: 'employer', value: m.value }),
  },
  {
    lang: 'es',
    say: `ya no soy ${DIETS}|perdí mi trabajo|estoy desempleado/desempleada|estoy jubilado/jubilada|me jubilé`,
    slot: 'none',
    build: (m) => ({ kind: 'retract', about: m.words.includes('ya') ? 'diet' : 'employer' }),
  },
];
