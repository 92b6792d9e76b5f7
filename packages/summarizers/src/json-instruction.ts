/** The rule added to the system prompt when a JSON reply is requested and the API has no JSON mode. */
export const JSON_INSTRUCTION =
  'Reply with exactly one JSON object and nothing else: no prose before or after it, no code fences.';

/** `system` plus the JSON rule, on a new paragraph. */
export function withJsonInstruction(system: string): string {
  return system === '' ? JSON_INSTRUCTION : `${system}\n\n${JSON_INSTRUCTION}`;
}
