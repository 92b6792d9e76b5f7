import { memPackageConfig } from '../../tsdown.base.ts';

export default memPackageConfig([
  'src/index.ts',
  'src/openai.ts',
  'src/anthropic.ts',
  'src/ai-sdk.ts',
]);
