/**
 * The Chain of Density prompts (Adams et al. 2023, "From Sparse to Dense"), adapted to
 * conversations: pass 1 writes an entity-sparse summary of the target length, each later pass
 * adds 1-3 Missing Entities without dropping any and without growing. One wording, in two reply
 * formats: JSON for a Chain of Density summarizer that runs every pass itself (such as
 * `@mem/summarizers`), plain text for core's loop around a plain summarizer function.
 */

/** What every summary must preserve (the Memory Manager's default summarization prompt). */
export const SUMMARY_FOCUS = [
  'Preserve:',
  '1. Key topics discussed',
  '2. Important decisions made',
  '3. Tools used and their outcomes',
  '4. Any errors or issues encountered',
  '5. Context that would be needed to continue',
].join('\n');

/** Roughly 0.75 English words per token. */
const WORDS_PER_TOKEN = 0.75;

/** `about 300 tokens (roughly 225 words)`. */
export function lengthTarget(targetTokens: number): string {
  const tokens = Math.max(1, Math.round(targetTokens));
  const words = Math.max(1, Math.round(tokens * WORDS_PER_TOKEN));
  return `about ${tokens} tokens (roughly ${words} words)`;
}

const transcriptBlock = (transcript: string) => `<transcript>\n${transcript}\n</transcript>`;
const previousSummaryBlock = (summary: string) =>
  `<previous_summary>\n${summary}\n</previous_summary>`;

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

/** Pass 1's task. With a single pass it asks for a dense summary at once. */
function initialTask(targetTokens: number, loops: number): string[] {
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
    `Pass 1 of ${loops}. Write a summary of the transcript of ${lengthTarget(targetTokens)}.`,
    ...style,
  ];
}

/** A later pass's task: find 1-3 Missing Entities, rewrite at the same length. */
function densifyTask(targetTokens: number, pass: number, loops: number): string[] {
  return [
    `Pass ${pass} of ${loops}. Make the previous summary denser.`,
    'Step 1. Identify 1-3 informative Missing Entities from the transcript that the previous summary lacks.',
    MISSING_ENTITY,
    `Step 2. Write a new, denser summary of identical length, ${lengthTarget(targetTokens)}, which covers every entity and detail from the previous summary plus the Missing Entities.`,
    DENSIFY_GUIDELINES,
  ];
}

export interface InitialPassPrompt {
  transcript: string;
  targetTokens: number;
  loops: number;
}

/** Pass 1 with a JSON reply: `{"entities": [...], "summary": "..."}`. */
export function initialPassPrompt({ transcript, targetTokens, loops }: InitialPassPrompt): string {
  return [
    transcriptBlock(transcript),
    ...initialTask(targetTokens, loops),
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

/**
 * Passes 2..loops with a JSON reply. The transcript comes first, so that every pass of a
 * compaction shares the same prompt prefix (and a provider's prompt cache).
 */
export function densifyPassPrompt(p: DensifyPassPrompt): string {
  const covered =
    p.coveredEntities.length === 0
      ? []
      : [
          `Entities the previous summary covers (keep all of them): ${p.coveredEntities.join('; ')}`,
        ];
  return [
    transcriptBlock(p.transcript),
    previousSummaryBlock(p.previousSummary),
    ...covered,
    ...densifyTask(p.targetTokens, p.pass, p.loops),
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

const REPLY_FORMAT = 'Reply with the summary text only: no preamble, no notes, no markdown fences.';

/** Pass 1 in plain text, for a summarizer function: the transcript is its input. */
export function initialSummaryPrompt(targetTokens: number, loops: number): string {
  return [...initialTask(targetTokens, loops), SUMMARY_FOCUS, REPLY_FORMAT].join('\n\n');
}

/** Passes 2..loops in plain text: the input holds the transcript and the previous summary. */
export function densifyPrompt(targetTokens: number, pass: number, loops: number): string {
  return [...densifyTask(targetTokens, pass, loops), REPLY_FORMAT].join('\n\n');
}

/** The instructions a pass receives: the user's `instructions`, then the pass's prompt. */
export function passInstructions(
  instructions: string | null,
  pass: number,
  loops: number,
  targetTokens: number,
): string {
  const prompt =
    pass === 1
      ? initialSummaryPrompt(targetTokens, loops)
      : densifyPrompt(targetTokens, pass, loops);
  return instructions === null || instructions.trim().length === 0
    ? prompt
    : `${instructions}\n\n${prompt}`;
}

/** The input of a pass: pass 1 gets the transcript alone; later passes also the previous summary. */
export function passInput(transcript: string, previousSummary: string | undefined): string {
  if (previousSummary === undefined) return transcript;
  return `${transcriptBlock(transcript)}\n\n${previousSummaryBlock(previousSummary)}`;
}
