/**
 * Prompts of core's Chain of Density loop (Adams et al. 2023, "From Sparse to Dense"), used when
 * the summarizer is a plain function: pass 1 writes a summary, each later pass adds 1–3 missing
 * entities without dropping any and without growing. Each pass's prompt is appended to the
 * profile's `instructions`.
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

const REPLY_FORMAT = 'Reply with the summary text only: no preamble, no notes, no markdown fences.';

/** Pass 1. With a single pass it asks for a dense summary at once, since no pass will densify it. */
export function initialSummaryPrompt(targetTokens: number, loops: number): string {
  const style =
    loops > 1
      ? 'Make it readable and somewhat general (entity-sparse): later passes will add missing details.'
      : 'Make it dense: fit as many specific names, numbers, dates, decisions and outcomes as the length allows.';
  return [
    `Summarize the conversation transcript in about ${targetTokens} tokens.`,
    style,
    SUMMARY_FOCUS,
    REPLY_FORMAT,
  ].join('\n');
}

/** Passes 2..loops: find 1–3 missing salient entities and rewrite at the same length. */
export function densifyPrompt(targetTokens: number, pass: number, loops: number): string {
  return [
    `Pass ${pass} of ${loops}: make the previous summary denser.`,
    'Step 1. Identify 1-3 informative entities (names, numbers, ids, dates, decisions, tool outcomes, errors) from the transcript that are missing from the previous summary. A missing entity is relevant to continuing the conversation, specific (5 words or fewer), novel (not in the previous summary), and faithful (present in the transcript).',
    `Step 2. Rewrite the previous summary so that it covers every entity and detail of the previous summary plus the missing entities. Never drop anything the previous summary contains; make room by fusing, compressing and removing uninformative phrases. Keep the same length, about ${targetTokens} tokens: do not grow.`,
    REPLY_FORMAT,
  ].join('\n');
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
  return `<transcript>\n${transcript}\n</transcript>\n\n<previous_summary>\n${previousSummary}\n</previous_summary>`;
}
