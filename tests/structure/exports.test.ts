import { relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readImportGraph } from './import-graph';

// An export nothing imports goes: it widens a module's surface for no reader and hides dead code
// from `noUnusedLocals`. Every file of the project counts as a reader (src/, tests/, scripts/,
// bench/, e2e/, sample/), read by the compiler (./import-graph.ts).

const ROOT = resolve(__dirname, '../..');

/** Every file of the app, the engine, the CLI and the sample generator. */
const CHECKED = ['src', 'sample'];

/**
 * The public strategy API (docs/custom-strategies.md): its readers are the strategies users write
 * (`import type … from 'compactlab/strategy'`) and the page's editor, which loads the file as text.
 */
const PUBLIC_API = ['src/engine/strategies/api.ts'];

/** Exports JavaScript reads, outside the compiler's view (the project compiles no .mjs). */
const READ_FROM_JAVASCRIPT: Record<string, readonly string[]> = {
  // bin/compactlab.cjs: `({ main } = await import(...))`, the bundle's or the source's.
  'src/cli/main.ts': ['main'],
  // bin/compactlab.cjs: dist/cli/inspect.cjs's `module.exports.main` (scripts/build-cli.mjs).
  'src/cli/inspect-main.ts': ['main'],
};

describe('exports something imports', () => {
  const graph = readImportGraph(resolve(ROOT, 'tsconfig.json'), ROOT);
  const rel = (file: string) => relative(ROOT, file);
  const inChecked = (file: string, entry: string) => file === entry || file.startsWith(`${entry}/`);
  const checked = graph.files.filter((f) => CHECKED.some((entry) => inChecked(rel(f), entry)));

  it('has files to check in every listed folder', () => {
    for (const folder of CHECKED)
      expect(
        checked.some((f) => inChecked(rel(f), folder)),
        folder,
      ).toBe(true);
  });

  it('every export of a checked folder has a reader', () => {
    const read = new Map<string, Set<string> | '*'>();
    for (const i of graph.imports) {
      if (!i.target) continue;
      const seen = read.get(i.target) ?? new Set<string>();
      if (seen === '*' || i.names === '*') read.set(i.target, '*');
      else read.set(i.target, new Set([...seen, ...i.names]));
    }
    const unread = checked.flatMap((file) => {
      const readers = read.get(file);
      if (readers === '*' || PUBLIC_API.includes(rel(file))) return [];
      return (graph.exports.get(file) ?? [])
        .filter((name) => !readers?.has(name) && !READ_FROM_JAVASCRIPT[rel(file)]?.includes(name))
        .map((name) => `${rel(file)}: ${name}`);
    });
    expect(unread, 'drop the export (or the declaration, when nothing in its file uses it)').toEqual([]);
  });
});
