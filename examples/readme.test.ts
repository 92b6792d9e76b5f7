import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFile(new URL(path, import.meta.url), 'utf8');

describe('the root README', () => {
  it('opens with examples/quick-start.ts, verbatim', async () => {
    const readme = await read('../README.md');
    const quickStart = readme.slice(readme.indexOf('## Quick start'));
    const block = /```ts\n([\s\S]*?)```/.exec(quickStart)?.[1];

    expect(readme.indexOf('## Quick start')).toBeLessThan(readme.indexOf('## Which API?'));
    expect(block).toBe(await read('./quick-start.ts'));
  });

  it('links every example file it names', async () => {
    const readme = await read('../README.md');
    const linked = [...readme.matchAll(/\]\(examples\/([\w-]+\.ts)\)/g)].map((m) => m[1]);

    expect(new Set(linked)).toEqual(
      new Set(['quick-start.ts', 'memory-facade.ts', 'memory-manager.ts']),
    );
    for (const file of linked) await expect(read(`./${file}`)).resolves.toBeTruthy();
  });
});
