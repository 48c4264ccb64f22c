import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { getPackageName, readImportGraph } from './import-graph';

// The import graph the layer and purity tests read comes from the compiler's syntax trees: a
// specifier in a comment, a string or a template is not an import, `window.start` is not the DOM,
// and every form of import is one (static, re-export, dynamic, `import('…').T`), with its
// type-only flag.

describe('the import graph reads imports as the compiler does', () => {
  const dir = mkdtempSync(join(tmpdir(), 'import-graph-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, code: string) => {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), code);
  };
  write(
    'tsconfig.json',
    JSON.stringify({
      compilerOptions: {
        module: 'ESNext',
        moduleResolution: 'bundler',
        jsx: 'react-jsx',
        allowImportingTsExtensions: true,
        noEmit: true,
      },
      include: ['src'],
    }),
  );
  write('src/ui/store.ts', 'export const store = 1;\nexport type Store = number;\n');
  write('src/ui/app.tsx', 'export const App = () => null;\n');
  write('src/worker/protocol.ts', 'export type Message = string;\n');
  write('src/worker/client.ts', 'export const post = () => 0;\n');
  write(
    'src/engine/x.ts',
    [
      "// import { store } from '../ui/store';",
      "/* export * from '../ui/app'; */",
      'const text = "import { post } from \'../worker/client\'";',
      "const template = `from '../ui/store'`;",
      'const view = { window: { start: 1 } };',
      'export const start = view.window.start + text.length + template.length;',
      "import type { Store } from '../ui/store';",
      "import { type Message } from '../worker/protocol';",
      "import { post, type Message as M } from '../worker/client';",
      "export type { Store as S } from '../ui/store';",
      "export { App } from '../ui/app';",
      "export const later = () => import('../ui/store');",
      "export type Later = import('../ui/store').Store;",
      "import { useState } from 'react';",
      'export const all = [post, useState] as const;',
      'export type All = Store | Message | M;',
      '',
    ].join('\n'),
  );
  const graph = readImportGraph(join(dir, 'tsconfig.json'), join(dir, 'src'));
  const from = graph.imports.filter((i) => i.file.endsWith('x.ts'));
  // Sorted: the compiler lists static imports before dynamic ones and import types.
  const sorted = (rows: unknown[][]) => rows.map((r) => JSON.stringify(r)).sort();
  const seen = from.map((i) => [i.spec, i.target ? relative(dir, i.target) : null, i.typeOnly, i.names]);

  it('finds the imports in code, none in comments or strings, with what each takes', () => {
    expect(sorted(seen)).toEqual(
      sorted([
        ['../ui/store', 'src/ui/store.ts', true, ['Store']], // import type { Store }
        ['../worker/protocol', 'src/worker/protocol.ts', true, ['Message']], // { type Message }
        ['../worker/client', 'src/worker/client.ts', false, ['post', 'Message']],
        ['../ui/store', 'src/ui/store.ts', true, ['Store']], // export type { Store as S }
        ['../ui/app', 'src/ui/app.tsx', false, ['App']],
        ['../ui/store', 'src/ui/store.ts', false, '*'], // import('../ui/store')
        ['../ui/store', 'src/ui/store.ts', true, ['Store']], // import('../ui/store').Store
        ['react', null, false, ['useState']],
      ]),
    );
  });

  it('reads what a file exports itself', () => {
    expect(graph.exports.get(join(dir, 'src/ui/store.ts'))).toEqual(['store', 'Store']);
    expect(graph.exports.get(join(dir, 'src/engine/x.ts'))).toEqual([
      'start',
      'later',
      'Later',
      'all',
      'All',
    ]);
  });

  it('names packages by their scope and name', () => {
    expect(getPackageName('@tanstack/react-query')).toBe('@tanstack/react-query');
    expect(getPackageName('monaco-editor/editor/editor.worker?worker')).toBe('monaco-editor');
    expect(getPackageName('zustand/react/shallow')).toBe('zustand');
    expect(getPackageName('node:fs')).toBe('node:fs');
  });
});
