import { prepJoin, type RulePattern, runsBusiness, set } from './rule-pattern.ts';

/** Portuguese statements about oneself (European and Brazilian; the subject `eu` optional). */

const words = (s: string) => new Set(s.split(/\s+/).filter((w) => w.length > 0));
const both = (s: string) =>
  s
    .split(/\s+/)
    .flatMap((w) => (w.length === 0 ? [] : w.endsWith('o') ? [w, `${w.slice(0, -1)}a`] : [w]));

export const PT_JOBS = new Set([
  ...both(`médico engenheiro enfermeiro advogado arquiteto cozinheiro aposentado veterinário
    farmacêutico fotógrafo psicólogo funcionário técnico biólogo químico físico empresário
    mecânico padeiro caixa secretário bombeiro bibliotecário motorista dentista eletricista
    estudante policial piloto agricultor cabeleireiro músico artista economista analista
    assistente estagiário gerente`),
  ...words(`professor professora programador programadora desenvolvedor desenvolvedora designer
    contador contadora garçom garçonete vendedor vendedora tradutor tradutora escritor escritora
    consultor consultora pesquisador pesquisadora cientista jornalista ator atriz chef fundador
    fundadora diretor diretora doutor doutora investigador investigadora`),
]);

const DIETS = 'vegetariano/vegetariana/vegano/vegana';
const EM = 'em/no/na/nos/nas';

/** Businesses someone runs. */
const BUSINESSES = words(
  `padaria cafeteria restaurante loja bar salão empresa negócio agência livraria hotel oficina fazenda clínica confeitaria floricultura startup academia`,
);

export const PT_PATTERNS: RulePattern[] = [
  {
    lang: 'pt',
    say: 'eu? tenho|eu? gerencio|eu? administro|eu? toco|eu? abri',
    slot: 'thing',
    build: runsBusiness('Tem', BUSINESSES),
  },
  {
    lang: 'pt',
    say: 'o? meu nome é|eu? me chamo|chamo me|pode me chamar de|podes chamar me|me chame de|me chamam de|todos me chamam de',
    slot: 'name',
    build: (m) => set('name', `Chama-se ${m.value}.`, m.value),
  },
  {
    lang: 'pt',
    say: 'eu? sou o/a?|aqui é o/a?|quem fala é o/a?',
    slot: 'name',
    greeting: true,
    build: (m) => set('name', `Chama-se ${m.value}.`, m.value),
  },
  {
    lang: 'pt',
    say: `eu? moro ${EM}|eu? vivo ${EM}|eu? me mudei para/pra|mudei me para/pra|nós? moramos ${EM}|nos mudamos para/pra|resido ${EM}|fui morar ${EM}`,
    slot: 'place',
    build: (m) =>
      set(
        'location',
        `Mora ${prepJoin(['para', 'pra'].includes(m.prep) ? 'em' : m.prep, m.value)}.`,
        m.value,
      ),
  },
  {
    lang: 'pt',
    say: `eu? sou de/do/da/dos|eu? venho de/do/da|nasci ${EM}|cresci ${EM}|sou natural de/do/da|sou originário/originária de/do/da`,
    slot: 'place',
    capOnly: true,
    build: (m) =>
      set(
        'origin',
        `É ${prepJoin(['em', 'no', 'na', 'nos', 'nas'].includes(m.prep) ? 'de' : m.prep, m.value)}.`,
        m.value,
      ),
  },
  {
    lang: 'pt',
    say: `eu? trabalho ${EM}|eu? trabalho para/pra|estou trabalhando ${EM}|estou a trabalhar ${EM}|comecei a trabalhar ${EM}`,
    slot: 'org',
    build: (m) => set('employer', `Trabalha ${prepJoin(m.prep, m.value)}.`, m.value),
    after: [
      {
        slot: 'job-free',
        preps: new Set(['como']),
        build: (job) => set('occupation', `Trabalha como ${job}.`, job),
      },
    ],
  },
  {
    lang: 'pt',
    say: 'eu? trabalho como|a minha profissão é|minha profissão é|sou de profissão',
    slot: 'job-free',
    build: (m) => set('occupation', `Trabalha como ${m.value}.`, m.value),
  },
  {
    lang: 'pt',
    say: 'eu? sou',
    slot: 'job',
    jobs: PT_JOBS,
    build: (m) => set('occupation', `É ${m.value}.`, m.value),
    after: [
      {
        slot: 'org',
        preps: words('em no na para'),
        build: (org, prep) => set('employer', `Trabalha ${prepJoin(prep, org)}.`, org),
      },
    ],
  },
  {
    lang: 'pt',
    say: 'a? minha esposa/mulher/filha/namorada/mãe/irmã se chama|a? minha esposa/mulher/filha/namorada/mãe/irmã chama se|o? meu marido/filho/namorado/pai/irmão se chama|o? meu marido/filho/namorado/pai/irmão chama se',
    slot: 'name',
    build: (m) => {
      const rel = m.words.find((w) => !['a', 'o', 'minha', 'meu'].includes(w)) ?? 'família';
      return set(
        `family:${rel}`,
        `${m.words.includes('minha') ? 'A' : 'O'} ${rel} chama-se ${m.value}.`,
        m.value,
      );
    },
  },
  {
    lang: 'pt',
    say: 'o? meu cachorro/cão/gato se chama|o? meu cachorro/cão/gato chama se|a? minha cadela/gata se chama|tenho um cachorro/cão/gato chamado|tenho uma cadela/gata chamada',
    slot: 'name',
    build: (m) => {
      const pet =
        m.words.find((w) => ['cachorro', 'cão', 'gato', 'cadela', 'gata'].includes(w)) ?? 'animal';
      const f = pet === 'cadela' || pet === 'gata';
      return set(
        `pet:${pet}`,
        `Tem ${f ? 'uma' : 'um'} ${pet} chamad${f ? 'a' : 'o'} ${m.value}.`,
        m.value,
      );
    },
  },
  {
    lang: 'pt',
    say: 'eu? gosto de/do/da/dos/das|eu? adoro|eu? amo|eu? odeio|eu? detesto|eu? prefiro|eu? não gosto de/do/da/dos/das|eu? já não gosto de/do/da/dos/das|eu? não gosto mais de/do/da/dos/das',
    slot: 'thing',
    build: (m) => {
      const w = m.words;
      const text = w.includes('não')
        ? w.includes('já') || w.includes('mais')
          ? `Já não gosta ${prepJoin(m.prep, m.value)}.`
          : `Não gosta ${prepJoin(m.prep, m.value)}.`
        : w.includes('adoro')
          ? `Adora ${m.value}.`
          : w.includes('amo')
            ? `Ama ${m.value}.`
            : w.includes('odeio') || w.includes('detesto')
              ? `Odeia ${m.value}.`
              : w.includes('prefiro')
                ? `Prefere ${m.value}.`
                : `Gosta ${prepJoin(m.prep, m.value)}.`;
      return set(`preference:${m.key}`, text, m.value);
    },
  },
  {
    lang: 'pt',
    say: 'sou alérgico/alérgica a/ao/à/aos/às|tenho alergia a/ao/à/aos/às',
    slot: 'thing',
    build: (m) => set(`allergy:${m.key}`, `Tem alergia ${prepJoin(m.prep, m.value)}.`, m.value),
  },
  {
    lang: 'pt',
    say: `eu? sou ${DIETS}`,
    slot: 'none',
    build: (m) => set('diet', `É ${m.words.at(-1)}.`, m.words.at(-1) ?? ''),
  },
  {
    lang: 'pt',
    say: 'lembre se de? que|lembra te de? que|lembra que|lembre que|não esqueça de? que|não se esqueça de? que|não te esqueças de? que|guarde que|anote que|por favor lembre se de? que|tenha em mente que|tem em conta que',
    slot: 'rest',
    request: true,
    build: (m) => set(`remember:${m.key.slice(0, 60)}`, `Pediu para lembrar: ${m.value}.`, m.value),
  },
  {
    lang: 'pt',
    say: 'esqueça que|esquece que|esqueça o que eu disse sobre',
    slot: 'rest',
    request: true,
    forget: true,
    build: () => undefined,
  },
  {
    lang: 'pt',
    say: `não moro mais ${EM}|já não moro ${EM}|eu? não moro ${EM}|não vivo mais ${EM}|já não vivo ${EM}`,
    slot: 'place',
    build: (m) => ({ kind: 'retract', about: 'location', value: m.value }),
  },
  {
    lang: 'pt',
    say: `não trabalho mais ${EM}|não trabalho mais para|já não trabalho ${EM}|já não trabalho para|saí da/do|deixei a/o|eu? não trabalho ${EM}`,
    slot: 'org',
    build: (m) => ({ kind: 'retract', about: 'employer', value: m.value }),
  },
  {
    lang: 'pt',
    say: `não sou mais ${DIETS}|já não sou ${DIETS}|perdi o meu? emprego|fui demitido/demitida|estou desempregado/desempregada|me aposentei|estou aposentado/aposentada`,
    slot: 'none',
    build: (m) => ({ kind: 'retract', about: m.words.includes('sou') ? 'diet' : 'employer' }),
  },
];
