import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { getImportGraph, getPackageName, getProjectFiles, withProject } from './import-graph';

// The engine runs unchanged in Node, in the Web Worker and on the main thread (STYLE.md §1).
// Two halves enforce it:
// - host globals: src/engine/tsconfig.json compiles the engine with no DOM and no Node types, so
//   `window`, `document`, `localStorage` or `process` used as a free name fails the typecheck
//   (`npm run typecheck`), while `session.window.start` or a local named `window` does not. The
//   compiler resolves the names; this file checks that config and that it covers every file.
// - imports: no package but the summarizer's SDK; no relative import out of src/engine/
//   (tests/structure/layers.test.ts has the rows inside it).

const ROOT = resolve(__dirname, '../..');
const ENGINE = resolve(ROOT, 'src/engine');
const ENGINE_TSCONFIG = join(ENGINE, 'tsconfig.json');

/** @anthropic-ai/sdk: the Anthropic summarizer's fetch-based client, no DOM or Node needed. */
const ENGINE_PACKAGES = ['@anthropic-ai/sdk'];

interface CompilerOptions {
  lib?: string[];
  types?: string[];
}
const engineOptions = (
  JSON.parse(readFileSync(ENGINE_TSCONFIG, 'utf8')) as { compilerOptions: CompilerOptions }
).compilerOptions;

describe('src/engine stays pure', () => {
  const root = withProject(resolve(ROOT, 'tsconfig.json'), (p) => getImportGraph(p, ENGINE));
  const engineFiles = withProject(ENGINE_TSCONFIG, (p) => getProjectFiles(p, ENGINE));

  it('has files and imports to check', () => {
    expect(root.files.length).toBeGreaterThan(100);
    expect(root.imports.length).toBeGreaterThan(500);
  });

  it("its tsconfig has no DOM, web worker or Node types: a host global fails the engine's typecheck", () => {
    expect(engineOptions.lib?.map((l) => l.toLowerCase())).toEqual(['es2022']);
    expect(engineOptions.types).toEqual([]);
  });

  it('its tsconfig compiles every engine file (a .tsx or a file left out would escape it)', () => {
    const covered = new Set(engineFiles);
    expect(root.files.filter((f) => !covered.has(f)).map((f) => f.slice(ENGINE.length + 1))).toEqual([]);
  });

  it('imports no package but the summarizer SDK (no DOM, React, zustand, TanStack, Monaco, node:*)', () => {
    const packages = root.imports
      .filter((i) => i.target === undefined && !ENGINE_PACKAGES.includes(getPackageName(i.spec)))
      .map((i) => `${i.file.slice(ENGINE.length + 1)} → ${i.spec}`);
    expect(packages).toEqual([]);
  });

  // The project's stop check (../shared/hooks/before-stop) reads the engine's text, not its names:
  // `window.`, `document.` or `localStorage.` anywhere, a comment or a property path included, is
  // taken there for a reach for the DOM. The compiler above is the real guard; this keeps the two
  // from disagreeing (a comment in gemini-cli's masking once said "window." and was flagged).
  it("holds no text the stop check reads as the DOM ('window.', 'document.', 'localStorage.')", () => {
    const flagged = root.files
      .filter((f) => !f.endsWith('.test.ts'))
      .flatMap((f) =>
        readFileSync(f, 'utf8')
          .split('\n')
          .map((line, i) =>
            /\b(document|window|localStorage)\./.test(line) ? `${f.slice(ENGINE.length + 1)}:${i + 1}` : '',
          )
          .filter(Boolean),
      );
    expect(flagged).toEqual([]);
  });

  it('imports nothing out of src/engine by a relative path (ui/, worker/, cli/, ../sample/)', () => {
    const outside = root.imports
      .filter((i) => i.target !== undefined && !i.target.startsWith(`${ENGINE}/`))
      .map((i) => `${i.file.slice(ENGINE.length + 1)} → ${i.spec}`);
    expect(outside).toEqual([]);
  });
});

describe("the engine's compiler options catch a host global, and only a free one", () => {
  const dir = mkdtempSync(join(tmpdir(), 'purity-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: engineOptions, include: ['*.ts'] }),
  );
  const planted: Record<string, string> = {
    'window.ts': 'export const url = window.location.href;\n',
    'document.ts': 'export const title = document.title;\n',
    'storage.ts': "export const saved = localStorage.getItem('k');\n",
    'process.ts': 'export const env = process.env;\n',
    'fine.ts': [
      '// window.location in a comment, "document.title" in a string',
      'const session = { window: { start: 1 } };',
      'export const start = session.window.start;',
      'export function first(window: { start: number }): number {',
      '  return window.start;',
      '}',
      '',
    ].join('\n'),
  };
  for (const [name, code] of Object.entries(planted)) writeFileSync(join(dir, name), code);
  const errors = withProject(join(dir, 'tsconfig.json'), (p) =>
    Object.fromEntries(
      Object.keys(planted).map((name) => {
        // A file the program left out would have no diagnostics and pass for the wrong reason.
        if (!p.program.getSourceFile(join(dir, name))) throw new Error(`${name} is not in the program`);
        return [name, p.program.getSemanticDiagnostics(join(dir, name)).map((d) => d.text)];
      }),
    ),
  );

  it.each(['window.ts', 'document.ts', 'storage.ts', 'process.ts'])('%s fails', (name) => {
    expect(errors[name]?.join('\n')).toMatch(/Cannot find name '(window|document|localStorage|process)'/);
  });

  it('a property or a parameter named window, and text in comments and strings, pass', () => {
    expect(errors['fine.ts']).toEqual([]);
  });
});
