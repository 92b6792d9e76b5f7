import { MemValidationError } from '../errors/errors.ts';

/**
 * How mem counts for a model:
 * - `o200k_base` / `cl100k_base`: OpenAI's encodings (gpt-tokenizer), with OpenAI's chat overhead.
 * - `claude`: the Claude encoding and per-message rules of ai-tokenizer's model table.
 * - `o200k_base+10%`: any other model, o200k_base plus a 10 % safety margin (see `modelCounting`).
 */
export type ModelCounting = 'o200k_base' | 'cl100k_base' | 'claude' | 'o200k_base+10%';

/** Share added to an o200k_base count for a model mem has no tokenizer for. */
export const OTHER_MODEL_MARGIN = 0.1;

/** Model ids as providers and gateways spell them: letters, digits and `._:@/+-`, 1 to 256 long. */
const MODEL_ID = /^[A-Za-z0-9._:@/+-]{1,256}$/;

/** `claude-…` alone or after a provider: `anthropic/`, Bedrock `anthropic.` (`us.anthropic.`), Vertex `…@date`. */
const CLAUDE = /(^|[/.:])claude-/;
const OPENAI_PREFIX = /^openai[/:]/;
const CL100K = /^(gpt-4(-|$)|gpt-3\.?5|text-embedding-(3|ada)|(babbage|davinci)-002$)/;
const O200K = /^(gpt-(4o|4\.1|4\.5|5|oss|image)|o\d(-|$)|chatgpt-|codex-)/;

/**
 * Checks a model id given to mem (`createMemoryEngine({ model })`, `context({ model })`, ...).
 * @param field what to name in the error, e.g. `model` or `options.model`.
 */
export function checkModelId(model: unknown, field = 'model'): string {
  if (typeof model !== 'string' || !MODEL_ID.test(model)) {
    const got =
      typeof model === 'string' ? JSON.stringify(model.slice(0, 80)) : `a ${typeof model}`;
    throw new MemValidationError(
      field,
      `[mem/core] ${field} must be the model id the prompt is for, as your provider spells it (e.g. "gpt-4o", "claude-sonnet-4-5", "anthropic/claude-3.5-sonnet"): letters, digits and . _ : @ / + - only, got ${got}.`,
    );
  }
  return model;
}

/**
 * Which counting a model id gets (documented as a table in the README, "Token counts per model"):
 * - Claude: `claude-*`, `anthropic/claude-*`, `anthropic.claude-*` and `us.anthropic.claude-*`
 *   (Bedrock), `claude-*@date` (Vertex) → `claude`.
 * - OpenAI, after an `openai/` or `openai:` prefix is dropped: `gpt-4`, `gpt-4-*`, `gpt-3.5*`,
 *   (Azure `gpt-35*`), `text-embedding-3*`/`-ada*`, `babbage-002`, `davinci-002` → `cl100k_base`; `gpt-4o*`, `gpt-4.1*`, `gpt-4.5*`, `gpt-5*`,
 *   `gpt-oss*`, `gpt-image*`, `o1*`, `o3*`, `o4*`, `chatgpt-*`, `codex-*` → `o200k_base`.
 * - Anything else → `o200k_base+10%`: no maintained tokenizer is bundled for it, so the o200k
 *   count gets a margin (ai-tokenizer's table puts Gemini at 1.08× o200k, several open models
 *   on Claude's encoding); check the `tokens:compared` figures for your model.
 * Case is ignored. No model at all means `o200k_base`.
 */
export function modelCounting(model: string | undefined): ModelCounting {
  if (model === undefined) return 'o200k_base';
  const id = checkModelId(model).toLowerCase();
  if (CLAUDE.test(id)) return 'claude';
  const bare = id.replace(OPENAI_PREFIX, '');
  if (CL100K.test(bare)) return 'cl100k_base';
  if (O200K.test(bare)) return 'o200k_base';
  return 'o200k_base+10%';
}
