import { readFile } from 'node:fs/promises';
import * as core from '@mem/core';
import * as backend from '@mem/core/backend';
import * as strategies from '@mem/core/strategies';
import * as summarize from '@mem/core/summarize';
import * as testing from '@mem/core/testing';
import * as suite from '@mem/store-test-suite';
import * as processes from '@mem/store-test-suite/processes';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFile(new URL(path, import.meta.url), 'utf8');

/** The first `ts` code block after `heading`. */
function codeAfter(markdown: string, heading: string): string | undefined {
  const at = markdown.indexOf(heading);
  if (at === -1) return undefined;
  return /```ts\n([\s\S]*?)```/.exec(markdown.slice(at))?.[1];
}

/** The rows of the markdown table right after `heading`, as cells. */
function tableAfter(markdown: string, heading: string): string[][] {
  const lines = markdown.slice(markdown.indexOf(heading)).split('\n');
  const start = lines.findIndex((l) => l.startsWith('|'));
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(line.split(' | ').map((cell) => cell.replace(/^\| |\|$/g, '').trim()));
  }
  return rows;
}

const identifiers = (text: string) =>
  [...text.matchAll(/`([A-Za-z_][A-Za-z0-9_]*)`/g)].map((m) => m[1] as string);

describe('the root README', () => {
  it('opens with examples/quick-start.ts, verbatim', async () => {
    const readme = await read('../README.md');

    expect(readme.indexOf('## Quick start')).toBeLessThan(readme.indexOf('## Which API?'));
    expect(codeAfter(readme, '## Quick start')).toBe(await read('./quick-start.ts'));
  });

  it('shows examples/user-memory.ts under "Users: memory across chats", verbatim', async () => {
    const readme = await read('../README.md');

    expect(readme.indexOf('## Users: memory across chats')).toBeLessThan(
      readme.indexOf('## Which API?'),
    );
    expect(codeAfter(readme, '## Users: memory across chats')).toBe(await read('./user-memory.ts'));
  });

  it('links every example file it names, and they exist', async () => {
    const readme = await read('../README.md');
    const linked = [...readme.matchAll(/\]\(examples\/([\w-]+\.ts)\)/g)].map((m) => m[1]);

    expect(new Set(linked)).toEqual(
      new Set(['quick-start.ts', 'user-memory.ts', 'memory-facade.ts', 'memory-manager.ts']),
    );
    for (const file of linked) await expect(read(`./${file}`)).resolves.toBeTruthy();
  });

  it('names in "Which API?" what @mem/core exports', async () => {
    const rows = tableAfter(await read('../README.md'), '## Which API?');

    const api = (row: string[]) => /`(?:new )?([A-Za-z]\w*)/.exec(row[0] ?? '')?.[1] ?? '';

    expect(rows.map(api)).toEqual(['createMemoryEngine', 'Memory', 'MemoryManager']);
    for (const row of rows) expect(core).toHaveProperty(api(row));
  });
});

describe('the @mem/core README', () => {
  const modules: Record<string, object> = {
    '@mem/core': core,
    '@mem/core/strategies': strategies,
    '@mem/core/summarize': summarize,
    '@mem/core/backend': backend,
    '@mem/core/testing': testing,
    '@mem/store-test-suite': suite,
  };
  const coreReadme = () => read('../packages/core/README.md');

  it('lists every entry once under "Entries", with names that entry exports', async () => {
    const rows = tableAfter(await coreReadme(), '## Entries');
    const entry = (row: string[]) => (row[0] ?? '').replaceAll('`', '');

    expect(rows.map(entry)).toEqual(Object.keys(modules).filter((m) => m.startsWith('@mem/core')));
    for (const row of rows) {
      for (const name of identifiers(row[2] ?? '')) {
        expect(modules[entry(row)], `${entry(row)} exports ${name}`).toHaveProperty(name);
      }
    }
  });

  it('shows examples/building-blocks.ts under "Building blocks", verbatim', async () => {
    expect(codeAfter(await coreReadme(), '## Building blocks')).toBe(
      await read('./building-blocks.ts'),
    );
  });

  it('shows examples/ai-sdk-v7-prompt.ts under "AI SDK 6 and 7", verbatim', async () => {
    expect(codeAfter(await coreReadme(), '### AI SDK 6 and 7')).toBe(
      await read('./ai-sdk-v7-prompt.ts'),
    );
  });

  it('imports in "Writing a backend" only what the modules export', async () => {
    const readme = await coreReadme();
    const section = readme.slice(readme.indexOf('## Writing a backend'));
    const imports = [...section.matchAll(/import \{([^}]*)\} from '([^']+)'/g)];
    const parsers = identifiers(section).filter((n) => /^parse[A-Z]/.test(n));

    expect(imports.map((m) => m[2])).toEqual([
      '@mem/core/backend',
      '@mem/store-test-suite',
      './index.ts',
    ]);
    for (const [, names = '', from = ''] of imports) {
      if (from.startsWith('.')) continue;
      for (const name of names.split(',').map((n) => n.trim())) {
        if (name === '' || name.startsWith('type ')) continue;
        expect(modules[from], `${from} exports ${name}`).toHaveProperty(name);
      }
    }
    const suites = identifiers(section).filter((n) => /^run[A-Z]/.test(n));
    expect(new Set(suites)).toEqual(
      new Set([
        'runStoreTests',
        'runKnowledgeBaseTests',
        'runEngineTests',
        'runCrashTests',
        'runMultiProcessTests',
      ]),
    );
    for (const name of suites) expect({ ...suite, ...processes }).toHaveProperty(name);
    expect(parsers.length).toBeGreaterThan(5);
    for (const name of parsers) expect(backend, `backend exports ${name}`).toHaveProperty(name);
  });
});

describe('the @mem/ai-sdk README', () => {
  it('shows examples/ai-sdk-middleware.ts under "Quick start", verbatim', async () => {
    const readme = await read('../packages/ai-sdk/README.md');

    expect(codeAfter(readme, '## Quick start')).toBe(await read('./ai-sdk-middleware.ts'));
  });
});

describe('the @mem/langchain README', () => {
  it('shows examples/langchain-agent.ts under "Quick start", verbatim', async () => {
    expect(codeAfter(await read('../packages/langchain/README.md'), '## Quick start')).toBe(
      await read('./langchain-agent.ts'),
    );
  });

  it('shows examples/langchain-quickstart.ts under "A chat with history", verbatim', async () => {
    expect(codeAfter(await read('../packages/langchain/README.md'), '## A chat with history')).toBe(
      await read('./langchain-quickstart.ts'),
    );
  });
});

describe('the @mem/openai-agents README', () => {
  it('shows examples/openai-agents-session.ts under "Quick start", verbatim', async () => {
    expect(codeAfter(await read('../packages/openai-agents/README.md'), '## Quick start')).toBe(
      await read('./openai-agents-session.ts'),
    );
  });
});
