import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StoredMessage, UserFact } from '../store/store-spec.ts';
import { MAX_USER_FACT_LENGTH } from '../store/store-spec.ts';
import type { FactOperation } from './fact-extractor.ts';
import { createRuleFactExtractor } from './rule-extractor.ts';

const extractor = createRuleFactExtractor();
const NOW = 1_700_000_000_000;

const message = (
  id: string,
  role: StoredMessage['role'],
  content: string,
  seq = 1,
): StoredMessage => ({
  id,
  role,
  content,
  createdAt: NOW,
  seq,
  tokenCount: 1,
});
const fact = (id: string, about: string, text: string): UserFact => ({
  id,
  about,
  text,
  sourceMessageIds: [],
  createdAt: NOW - 1,
  updatedAt: NOW - 1,
});

async function extract(
  user: string | string[],
  facts: UserFact[] = [],
  x = extractor,
): Promise<FactOperation[]> {
  const texts = Array.isArray(user) ? user : [user];
  const messages = texts.map((t, i) => message(`u${i}`, 'user', t, i + 1));
  return x.extract(
    { userId: 'u', sessionId: 's', now: NOW, facts, messages },
    { signal: new AbortController().signal },
  );
}
/** `about` -> text of the added or updated facts. */
const facts = async (user: string | string[], prior: UserFact[] = []) =>
  Object.fromEntries(
    (await extract(user, prior)).flatMap((op) => (op.op === 'delete' ? [] : [[op.about, op.text]])),
  );

describe('createRuleFactExtractor', () => {
  it('is the `rules` extractor of the v1 specification', () => {
    expect(extractor.id).toBe('rules');
    expect(extractor.specificationVersion).toBe('mem.fact-extractor.v1');
  });

  it("takes 'I moved to Porto last month' as the user's location", async () => {
    expect(await extract('I moved to Porto last month')).toEqual([
      { op: 'add', about: 'location', text: 'Lives in Porto.', sourceMessageIds: ['u0'] },
    ]);
  });

  it('takes a name, a place, work and a taste from one introduction', async () => {
    expect(
      await facts(
        "Hi, I'm Ana and I live in Lisbon. I'm a nurse at Santa Maria and I love hiking.",
      ),
    ).toEqual({
      name: 'Name is Ana.',
      location: 'Lives in Lisbon.',
      occupation: 'Is a nurse.',
      employer: 'Works at Santa Maria.',
      'preference:hiking': 'Loves hiking.',
    });
  });

  it("ignores 'my sister lives in Berlin' and other people's facts", async () => {
    for (const text of [
      'my sister lives in Berlin',
      "My friend's name is Bob.",
      'John said he works at Google.',
      'My mom is allergic to shellfish.',
    ]) {
      expect(await extract(text), text).toEqual([]);
    }
  });

  it('ignores questions, hypotheticals, quotations, code, jokes and error texts', async () => {
    for (const text of [
      'Do I live in Paris?',
      "What's my name?",
      "If I lived in Paris, I'd walk everywhere.",
      'I want to move to Canada.',
      'He wrote "I live in Paris" on the postcard.',
      'console.log("my name is Ana");',
      '```\nI live in Paris\n```',
      'Yeah right, and I love waiting in line.',
      'Error: my name is not defined',
      'Translate to French: I live in London.',
      'I love your answer!',
    ]) {
      expect(await extract(text), text).toEqual([]);
    }
  });

  it('reads only the user: the assistant and tools state nothing about the user', async () => {
    const ops = await extractor.extract(
      {
        userId: 'u',
        sessionId: 's',
        now: NOW,
        facts: [],
        messages: [
          message('u1', 'user', 'Where is a good bakery?', 1),
          message('a1', 'assistant', 'I live in Paris and my name is Claude.', 2),
          { ...message('t1', 'tool', 'My name is Tool. I work at Acme.', 3), toolCallId: 'c1' },
          message('s1', 'system', 'The user lives in Rome.', 4),
        ],
      },
      { signal: new AbortController().signal },
    );
    expect(ops).toEqual([]);
  });

  it('a correction supersedes the old location: the same fact is updated', async () => {
    const prior = [fact('f1', 'location', 'Lives in Paris.'), fact('f2', 'name', 'Name is Ana.')];
    expect(await extract('Actually, I live in Lisbon now.', prior)).toEqual([
      {
        op: 'update',
        id: 'f1',
        about: 'location',
        text: 'Lives in Lisbon.',
        sourceMessageIds: ['u0'],
      },
    ]);
    expect(await extract("I don't live in Paris anymore, I moved to Rome.", prior)).toEqual([
      {
        op: 'update',
        id: 'f1',
        about: 'location',
        text: 'Lives in Rome.',
        sourceMessageIds: ['u0'],
      },
    ]);
  });

  it('deletes a fact the user retracts, and only the one named', async () => {
    const prior = [
      fact('f1', 'location', 'Lives in Paris.'),
      fact('f3', 'employer', 'Works at Acme.'),
    ];
    expect(await extract('I no longer live in Paris.', prior)).toEqual([
      { op: 'delete', id: 'f1' },
    ]);
    expect(await extract("I don't work at Acme any more.", prior)).toEqual([
      { op: 'delete', id: 'f3' },
    ]);
    expect(await extract('I quit my job last week.', prior)).toEqual([{ op: 'delete', id: 'f3' }]);
    expect(await extract("I don't live in Berlin anymore.", prior)).toEqual([]);
    expect(await extract('Please forget that I live in Paris.', prior)).toEqual([
      { op: 'delete', id: 'f1' },
    ]);
  });

  it('a negation without a prior fact states nothing', async () => {
    for (const text of [
      "I don't live in Paris.",
      "I'm not vegetarian anymore.",
      'Ich wohne nicht mehr in Berlin.',
    ]) {
      expect(await extract(text), text).toEqual([]);
    }
  });

  it('a dislike replaces the like about the same thing', async () => {
    expect(
      await extract("I don't like coffee anymore.", [
        fact('f5', 'preference:coffee', 'Likes coffee.'),
      ]),
    ).toEqual([
      {
        op: 'update',
        id: 'f5',
        about: 'preference:coffee',
        text: 'No longer likes coffee.',
        sourceMessageIds: ['u0'],
      },
    ]);
  });

  it('says nothing when a statement repeats a fact as it stands', async () => {
    expect(await extract('I live in Paris.', [fact('f1', 'location', 'Lives in Paris.')])).toEqual(
      [],
    );
  });

  it('the newest statement of an interaction wins, from the message that made it', async () => {
    expect(await extract(['I live in Rome.', 'Sorry, I meant: I live in Milan.'])).toEqual([
      { op: 'add', about: 'location', text: 'Lives in Milan.', sourceMessageIds: ['u1'] },
    ]);
  });

  it("keeps what the user asks to remember, in the user's words", async () => {
    expect(await facts('Please remember that my flight is on Friday.')).toEqual({
      'remember:flight is on friday': 'Asked to remember: my flight is on Friday.',
    });
    // A statement inside `remember that` is taken as the statement itself.
    expect(await facts('Remember that I live in Denver.')).toEqual({
      location: 'Lives in Denver.',
    });
    expect(await facts('Can you remember that I use a Mac?')).toEqual({
      'remember:i use a mac': 'Asked to remember: I use a Mac.',
    });
    expect(await extract('Do you remember my name?')).toEqual([]);
  });

  it("takes a sign-in at the opening of a message as the user's name, never a pronoun, place or common word", async () => {
    expect(await facts('Morning Orla, Maren here. Can you find the ticket?')).toEqual({
      name: 'Name is Maren.',
    });
    expect(await facts('Hi Orla, Maren again.')).toEqual({ name: 'Name is Maren.' });
    expect(await facts("Hey, it's Dave")).toEqual({ name: 'Name is Dave.' });
    expect(await facts('Dave here, quick question.')).toEqual({ name: 'Name is Dave.' });
    expect(await facts("I'm Dave, I need help with an invoice.")).toEqual({
      name: 'Name is Dave.',
    });
    for (const text of [
      'Nobody here knows.',
      'Berlin here is cold.',
      'Hi, Berlin here, it is freezing.',
      'Me again, sorry.',
      "Hey, it's Monday again.",
      'Thanks again!',
      "I'm Batman.",
      'So I told them: Dave here, quick question.',
    ]) {
      expect(await facts(text), text).toEqual({});
    }
  });

  it('learns how the user wants to be contacted, not one-off requests to call or text', async () => {
    expect(await facts('Always email me, never call.')).toEqual({
      'preference:contact': 'Prefers email, not phone calls.',
    });
    expect(await facts("Please don't call me, email is fine.")).toEqual({
      'preference:contact': 'Prefers email, not phone calls.',
    });
    expect(await facts('Text me rather than call.')).toEqual({
      'preference:contact': 'Prefers text messages, not phone calls.',
    });
    expect(await facts('I prefer email over phone calls.')).toEqual({
      'preference:contact': 'Prefers email over phone calls.',
    });
    expect(await facts('Bitte ruf mich nicht an, schreib mir lieber eine E-Mail.')).toEqual({
      'preference:contact': 'Möchte per E-Mail kontaktiert werden, nicht per Telefon.',
    });
    expect(await facts("Ne m'appelez pas, envoyez-moi plutôt un e-mail.")).toEqual({
      'preference:contact': 'Préfère être contacté par e-mail, pas par téléphone.',
    });
    for (const text of [
      'Schreib mir eine E-Mail mit dem Angebot.',
      'No me llames Juan.',
      'Text me the code.',
      'Call me when you can.',
      "Don't text me, I'm driving.",
      'Please call me back.',
      'The email is fine, send it.',
      'My sister always emails me, never calls.',
      'Never call a function from inside its own constructor.',
    ]) {
      expect(await facts(text), text).toEqual({});
    }
  });

  it("reads I'd rather X than Y, we're in X, a business someone runs, named twins and pets by breed", async () => {
    expect(await facts("I'd rather have tea than coffee.")).toEqual({
      'preference:tea': 'Prefers tea over coffee.',
    });
    expect(await facts("We're in Auckland, so mornings work best.")).toEqual({
      location: 'Lives in Auckland.',
    });
    expect(await facts('I run a small bakery in Leeds.')).toEqual({
      occupation: 'Runs a small bakery.',
    });
    expect(await facts('My twins are named Ava and Noah.')).toEqual({
      'family:twins': 'Has twins named Ava and Noah.',
    });
    expect(await facts('We have a golden retriever called Biscuit.')).toEqual({
      'pet:dog': 'Has a golden retriever named Biscuit.',
    });
    expect(await facts("Keep in mind I'm vegetarian.")).toEqual({ diet: 'Is vegetarian.' });
    for (const text of [
      "I'd rather not say.",
      "We're in trouble.",
      "We're in Q3 already.",
      'I run every morning.',
      "Keep in mind it's only a draft.",
      'My kids are named after their grandparents.',
    ]) {
      expect(await facts(text), text).toEqual({});
    }
  });

  it('reads German, French, Spanish and Portuguese self-statements', async () => {
    expect(await facts('Ich heiße Jonas und wohne in Leipzig. Ich arbeite bei Siemens.')).toEqual({
      name: 'Heißt Jonas.',
      location: 'Wohnt in Leipzig.',
      employer: 'Arbeitet bei Siemens.',
    });
    expect(await facts("Je m'appelle Claire, j'habite à Lyon et j'adore la randonnée.")).toEqual({
      name: "S'appelle Claire.",
      location: 'Habite à Lyon.',
      'preference:randonnée': 'Adore la randonnée.',
    });
    expect(await facts('Me llamo Lucía y vivo en Sevilla. Soy enfermera.')).toEqual({
      name: 'Se llama Lucía.',
      location: 'Vive en Sevilla.',
      occupation: 'Es enfermera.',
    });
    expect(await facts('Meu nome é João e moro no Rio de Janeiro. Não gosto de coentro.')).toEqual({
      name: 'Chama-se João.',
      location: 'Mora no Rio de Janeiro.',
      'preference:coentro': 'Não gosta de coentro.',
    });
  });

  it('states nothing from Japanese, Chinese, Arabic or Russian text', async () => {
    for (const text of [
      '私の名前は田中です。東京に住んでいます。',
      '我叫王伟，我住在上海。',
      'اسمي أحمد وأعيش في القاهرة.',
      'Меня зовут Иван, я живу в Москве.',
    ]) {
      expect(await extract(text), text).toEqual([]);
    }
  });

  it('reads at most maxCharsPerMessage characters of a message', async () => {
    const late = `${'Tell me about bread. '.repeat(250)}I live in Lisbon.`;
    expect(late.length).toBeGreaterThan(4_000);
    expect(await extract(late)).toEqual([]);
    const wide = createRuleFactExtractor({ maxCharsPerMessage: 10_000 });
    expect(await extract(late, [], wide)).toMatchObject([
      { about: 'location', text: 'Lives in Lisbon.' },
    ]);
  });

  it('finds the statement at the start of a 1 MB message and of adversarial inputs', async () => {
    const mb = 1 << 20;
    expect(await facts(`My name is Ana. ${'a'.repeat(mb)}`)).toEqual({ name: 'Name is Ana.' });
    for (const text of [
      'remember that '.repeat(mb / 14),
      ', '.repeat(mb / 2),
      '“\n'.repeat(mb / 2),
      'my name is '.repeat(mb / 11),
    ]) {
      expect(await extract(text)).toEqual([]);
    }
  });

  it('never keeps a credential, and keeps the other facts of the message', async () => {
    expect(
      await facts('My name is Ana. Remember that my OpenAI key is sk-proj-Ab12Cd34Ef56Gh78.'),
    ).toEqual({
      name: 'Name is Ana.',
    });
    expect(await extract('Please remember that my password is hunter2.')).toEqual([]);
    expect(
      await extract('Remember my PIN is 4921 and my card number is 4111 1111 1111 1111.'),
    ).toEqual([]);
  });

  it('stops when its signal is aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const ops = await extractor.extract(
      {
        userId: 'u',
        sessionId: 's',
        now: NOW,
        facts: [],
        messages: [message('u0', 'user', 'I live in Lisbon.')],
      },
      { signal: controller.signal },
    );
    expect(ops).toEqual([]);
  });

  it('every fact it writes is one short non-blank sentence with an about key, for any input', async () => {
    const word = fc.constantFrom(
      'I',
      'my',
      'name',
      'is',
      'live',
      'in',
      'Paris',
      'love',
      'am',
      'a',
      'nurse',
      'remember',
      'that',
      ',',
      '?',
      '"',
      'não',
      'moro',
      'em',
      'ich',
      'wohne',
      '\n',
      '😂',
      'O’Brien',
      'je',
      "m'appelle",
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(word, { maxLength: 40 }),
        fc.string({ maxLength: 60 }),
        async (words, noise) => {
          for (const op of await extract(`${words.join(' ')} ${noise}`)) {
            if (op.op === 'delete') continue;
            expect(op.text.trim().length).toBeGreaterThan(1);
            expect(op.text.length).toBeLessThanOrEqual(MAX_USER_FACT_LENGTH);
            expect(op.text.isWellFormed()).toBe(true);
            expect(op.about?.length ?? 0).toBeGreaterThan(0);
            expect(op.about?.length ?? 0).toBeLessThanOrEqual(128);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
