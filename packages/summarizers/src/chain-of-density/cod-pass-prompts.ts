/**
 * The user prompt of each Chain of Density pass. The transcript comes first so that every pass
 * of a compaction shares the same prompt prefix (and a provider's prompt cache).
 */

/** Roughly 0.75 English words per token. */
const WORDS_PER_TOKEN = 0.75;

/** `about 300 tokens (roughly 225 words)`. */
export function lengthTarget(targetTokens: number): string {
  const tokens = Math.max(1, Math.round(targetTokens));
  const words = Math.max(1, Math.round(tokens * WORDS_PER_TOKEN));
  return `about ${tokens} tokens (roughly ${words} words)`;
}

function transcriptBlock(transcript: string): string {
  return `<transcript>\n${transcript}\n</transcript>`;
}

/** The paper's definition of a missing entity, for conversations. */
const MISSING_ENTITY = [
  'A Missing Entity is:',
  '- Relevant: needed to continue the conversation or to act on it later.',
  '- Specific: descriptive yet concise (5 words or fewer); copy numbers, ids and names exactly.',
  '- Novel: not in the previous summary.',
  '- Faithful: present in the transcript.',
  '- Anywhere: located anywhere in the transcript.',
].join('\n');

const DENSIFY_GUIDELINES = [
  'Guidelines:',
  '- Make every word count: rewrite the previous summary to improve flow and make space for the Missing Entities.',
  '- Make space with fusion, compression, and removal of uninformative phrases like "the conversation discusses".',
  '- The summary must become highly dense and concise yet self-contained: understandable without the transcript.',
  '- Missing Entities can appear anywhere in the new summary.',
  '- Never drop entities or details of the previous summary. If space cannot be made, add fewer new entities.',
].join('\n');

export interface InitialPassPrompt {
  transcript: string;
  targetTokens: number;
  loops: number;
}

/**
 * Pass 1: an entity-sparse summary of the target length, general and verbose so that later
 * passes have room. With a single pass it asks for a dense summary at once.
 */
export function initialPassPrompt({ transcript, targetTokens, loops }: InitialPassPrompt): string {
  const style =
    loops > 1
      ? [
          'Make it deliberately entity-sparse: name the main topic and only the 1-3 most central entities, and stay general otherwise.',
          'Reach the length with verbose, non-specific wording (fillers such as "the conversation discusses" are fine): later passes will replace them with missing entities.',
        ]
      : [
          'Make it dense: fit as many entities (names, numbers, ids, dates, decisions, tool outcomes and errors, open action items, user preferences) as the length allows, and stay self-contained.',
        ];
  return [
    transcriptBlock(transcript),
    `Pass 1 of ${loops}. Write a summary of the transcript of ${lengthTarget(targetTokens)}.`,
    ...style,
    'Reply with a JSON object: {"entities": [the entities the summary mentions], "summary": "the summary"}',
  ].join('\n\n');
}

export interface DensifyPassPrompt extends InitialPassPrompt {
  /** 2-based pass number. */
  pass: number;
  previousSummary: string;
  /** Entities the previous summary covers (pass 1's list and every pass's additions). */
  coveredEntities: readonly string[];
}

/** Passes 2..loops: find 1-3 Missing Entities, rewrite the previous summary at the same length. */
export function densifyPassPrompt(p: DensifyPassPrompt): string {
  const covered =
    p.coveredEntities.length === 0
      ? []
      : [
          `Entities the previous summary covers (keep all of them): ${p.coveredEntities.join('; ')}`,
        ];
  return [
    transcriptBlock(p.transcript),
    `<previous_summary>\n${p.previousSummary}\n</previous_summary>`,
    ...covered,
    `Pass ${p.pass} of ${p.loops}. Make the previous summary denser.`,
    'Step 1. Identify 1-3 informative Missing Entities from the transcript that the previous summary lacks.',
    MISSING_ENTITY,
    `Step 2. Write a new, denser summary of identical length, ${lengthTarget(p.targetTokens)}, which covers every entity and detail from the previous summary plus the Missing Entities.`,
    DENSIFY_GUIDELINES,
    'Reply with a JSON object: {"missing_entities": [the 1-3 entities added], "denser_summary": "the new summary"}',
  ].join('\n\n');
}

/** The paper's one-call variant: all `loops` steps in one JSON reply. */
export function allStepsPrompt({ transcript, targetTokens, loops }: InitialPassPrompt): string {
  return [
    transcriptBlock(transcript),
    `Write increasingly concise, entity-dense summaries of the transcript, each of ${lengthTarget(targetTokens)}. Repeat the following 2 steps ${loops} times.`,
    'Step 1. Identify 1-3 informative Missing Entities from the transcript that the previously generated summary lacks.',
    'Step 2. Write a new, denser summary of identical length which covers every entity and detail from the previous summary plus the Missing Entities.',
    MISSING_ENTITY,
    `${DENSIFY_GUIDELINES}\n- The first summary should be deliberately entity-sparse: general, verbose, naming only the 1-3 most central entities.`,
    `Reply with a JSON object: {"steps": [${loops} objects in order, each {"missing_entities": [...], "denser_summary": "..."}]}`,
  ].join('\n\n');
}
