import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// The engine runs unchanged in Node, in the Web Worker and on the main thread (STYLE.md §1):
// it may not reach for the DOM, UI libraries or Node's modules, nor import the app's other parts
// (ui/, worker/, cli/, sample/) by a relative path. `src/engine/tsconfig.json` (no DOM, no Node
// types) enforces the first at compile time; tests/engine/layers.test.ts the folders inside.

const ENGINE = resolve(__dirname, '../../src/engine');
const FORBIDDEN_IMPORT =
  /from\s+['"](react|react-dom|zustand|@tanstack\/[^'"]+|monaco-editor|@monaco-editor\/[^'"]+|dexie|node:[^'"]+|fs|path|os|child_process)['"]/;
const FORBIDDEN_GLOBAL = /\b(document|window|localStorage|sessionStorage|navigator|process)\s*\./;
/** Every relative module specifier: `from '…'`, `import '…'`, `import('…')`. */
const RELATIVE_SPEC = /(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]*)['"]/g;
/** Source files of any TypeScript or JavaScript flavour: a `.tsx` in the engine is checked too. */
const SOURCE = /\.(?:ts|tsx|mts|cts|js|mjs)$/;

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : SOURCE.test(path) ? [path] : [];
  });
}

const stripComments = (code: string) => code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');

/** The relative imports of `path` that leave `root`, as `spec`s. */
function importsOutside(root: string, path: string): string[] {
  const code = stripComments(readFileSync(path, 'utf8'));
  return [...code.matchAll(RELATIVE_SPEC)]
    .map((m) => m[1] ?? '')
    .filter((spec) => relative(root, resolve(dirname(path), spec)).startsWith('..'));
}

describe('src/engine stays pure', () => {
  const files = walk(ENGINE);
  it('has files to check', () => expect(files.length).toBeGreaterThan(5));
  it.each(files.map((f) => [f.slice(ENGINE.length + 1), f]))('%s', (_name, path) => {
    const code = stripComments(readFileSync(path, 'utf8'));
    expect(code).not.toMatch(FORBIDDEN_IMPORT);
    expect(code).not.toMatch(FORBIDDEN_GLOBAL);
    expect(importsOutside(ENGINE, path), 'relative imports out of src/engine').toEqual([]);
  });
});

describe('the purity check catches a planted import out of the engine', () => {
  const root = mkdtempSync(join(tmpdir(), 'purity-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const engine = join(root, 'src/engine');
  const plant = (name: string, code: string) => {
    const path = join(engine, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, code);
    return path;
  };

  it.each([
    ['ui', "import { useStore } from '../../ui/store';\n"],
    ['worker', "export type { EngineResults } from '../../worker/protocol';\n"],
    ['cli', "const m = await import('../../cli/main');\n"],
    ['sample', "import '../../../sample/generate-session';\n"],
    ['a .tsx file', "import { App } from '../ui/app';\n"],
  ])('%s', (what, code) => {
    const path = plant(what === 'a .tsx file' ? 'view.tsx' : `replay/${what}.ts`, code);
    expect(walk(engine)).toContain(path);
    expect(importsOutside(engine, path)).toHaveLength(1);
  });

  it('lets imports inside the engine through', () => {
    const path = plant(
      'replay/inside.ts',
      "import { at } from '../assert';\nimport type { X } from './x';\n",
    );
    expect(importsOutside(engine, path)).toEqual([]);
  });
});
