import { memPackageConfig } from '../../tsdown.base.ts';

export default memPackageConfig(['src/index.ts']);
