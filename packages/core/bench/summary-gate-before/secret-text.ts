/**
 * Credentials by their shape: provider API keys (whole or masked, as error messages quote them:
 * `sk-proj-Ab12****wXyZ`), cloud and chat-platform tokens, bearer tokens. Quantifiers are
 * bounded, so the scan stays linear on any text.
 */
const SECRET = new RegExp(
  [
    String.raw`\b(?:sk|rk|pk)[-_](?:[\w*…-]{4,256}|…)`,
    String.raw`\bAKIA[0-9A-Z]{16}\b`,
    String.raw`\b(?:ghp|gho|ghs|ghu|ghr|github_pat|glpat|hf|xox[abposr])[-_][\w*-]{10,256}`,
    String.raw`\bAIza[\w-]{30,256}`,
    String.raw`\bBearer\s{1,8}[\w.~+/*-]{16,1024}`,
  ].join('|'),
  'g',
);

/**
 * The credential-looking strings of `text` that `source` does not contain: what a summary must
 * never add to memory (a provider's "Incorrect API key provided: sk-..." reply). A string the
 * conversation itself holds is not new, so it is not returned.
 */
export function secretsNotIn(text: string, source: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(SECRET)) {
    if (!source.includes(match[0])) found.push(match[0]);
  }
  return found;
}
