import { memPackageConfig } from '../../tsdown.base.ts';

// ai-tokenizer (its Claude encoding) is a devDependency that the build bundles, into a chunk only
// a dynamic import() reaches (src/tokens/load-claude-encoding.ts): as a dependency, its optional
// peer `ai@^5` would put a second `ai` into users' trees. Nothing else from node_modules is bundled.
const AI_TOKENIZER = /^ai-tokenizer(\/.*)?$/;

export default memPackageConfig(
  ['src/index.ts', 'src/backend.ts', 'src/strategies.ts', 'src/summarize.ts', 'src/testing.ts'],
  { deps: { alwaysBundle: [AI_TOKENIZER], onlyBundle: [AI_TOKENIZER] } },
);
