import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Each entry of `@mem/core` is written for one audience (see the package README). The names an
 * entry exports are part of the public API: this test fails on any name added, removed or moved
 * between entries, so such a change is made on purpose (update the snapshot with `vitest -u`).
 */
const ENTRIES = ['index', 'backend', 'strategies', 'summarize', 'testing'] as const;

const program = ts.createProgram(
  ENTRIES.map((entry) => fileURLToPath(new URL(`./${entry}.ts`, import.meta.url))),
  {
    allowImportingTsExtensions: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    noEmit: true,
    strict: true,
    target: ts.ScriptTarget.ES2023,
  },
);
const checker = program.getTypeChecker();

function exportsOf(entry: string): { values: string[]; types: string[] } {
  const file = program.getSourceFile(fileURLToPath(new URL(`./${entry}.ts`, import.meta.url)));
  const symbol = file === undefined ? undefined : checker.getSymbolAtLocation(file);
  if (symbol === undefined) throw new Error(`entry ${entry} not found`);
  const values: string[] = [];
  const types: string[] = [];
  for (const exported of checker.getExportsOfModule(symbol)) {
    const target =
      exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const declaration = exported.declarations?.[0];
    const typeOnly =
      declaration !== undefined &&
      ts.isExportSpecifier(declaration) &&
      (declaration.isTypeOnly || declaration.parent.parent.isTypeOnly);
    (!typeOnly && target.flags & ts.SymbolFlags.Value ? values : types).push(exported.name);
  }
  return { values: values.sort(), types: types.sort() };
}

describe('@mem/core entries', () => {
  it.each(ENTRIES)('%s exports exactly the snapshotted names', async (entry) => {
    const names = exportsOf(entry);
    const runtime = Object.keys(await import(`./${entry}.ts`)).sort();
    expect(runtime).toStrictEqual(names.values);
    expect(names).toMatchSnapshot();
  });

  it('keeps the user entry small: at most 50 runtime names', async () => {
    const runtime = Object.keys(await import('./index.ts'));
    expect(runtime.length).toBeLessThanOrEqual(50);
  });
});
