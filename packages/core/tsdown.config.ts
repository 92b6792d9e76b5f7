import { memPackageConfig } from '../../tsdown.base.ts';

export default memPackageConfig([
  'src/index.ts',
  'src/backend.ts',
  'src/strategies.ts',
  'src/summarize.ts',
  'src/testing.ts',
]);
