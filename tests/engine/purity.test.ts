import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// The engine runs unchanged in Node, in the Web Worker and on the main thread (STYLE.md §1):
// it may not reach for the DOM, UI libraries or Node's modules. `src/engine/tsconfig.json`
// (no DOM, no Node types) enforces the same at compile time.

const ENGINE = resolve(__dirname, '../../src/engine');
const FORBIDDEN_IMPORT =
  /from\s+['"](react|react-dom|zustand|@tanstack\/[^'"]+|monaco-editor|@monaco-editor\/[^'"]+|dexie|node:[^'"]+|fs|path|os|child_process)['"]/;
const FORBIDDEN_GLOBAL = /\b(document|window|localStorage|sessionStorage|navigator|process)\s*\./;

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('src/engine stays pure', () => {
  const files = walk(ENGINE);
  it('has files to check', () => expect(files.length).toBeGreaterThan(5));
  it.each(files.map((f) => [f.slice(ENGINE.length + 1), f]))('%s', (_name, path) => {
    const code = readFileSync(path, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '');
    expect(code).not.toMatch(FORBIDDEN_IMPORT);
    expect(code).not.toMatch(FORBIDDEN_GLOBAL);
  });
});
