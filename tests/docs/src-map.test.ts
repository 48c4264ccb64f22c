import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

// src/README.md is the map of src/: every source file is named there by its file name in
// backticks (by a tail of its path, `replay/types.ts`, where names repeat), and every `*.ts`,
// `*.tsx` or `*.css` name it gives still exists. A file added without a line in the map, or
// removed while the map still names it, fails here with its path.

const ROOT = resolve(__dirname, '../..');
const SRC = join(ROOT, 'src');

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [relative(SRC, path).split(sep).join('/')];
  });
}

const isMapped = (path: string): boolean => /\.(ts|tsx|css)$/.test(path) && !path.endsWith('.d.ts');

/** The code spans of a markdown text, in order (single backticks; the map uses no others). */
const codeSpans = (markdown: string): string[] => [...markdown.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!);

/** A name the map gives is a file when it names one under src/ by name, or by a path's tail. */
function namesExistingFile(name: string, files: readonly string[]): boolean {
  if (!name.includes('/')) return files.some((f) => basename(f) === name);
  return existsSync(join(ROOT, name)) || files.some((f) => f === name || f.endsWith(`/${name}`));
}

describe('src/README.md maps src/', () => {
  const files = walk(SRC);
  const readme = readFileSync(join(SRC, 'README.md'), 'utf8');
  const spans = codeSpans(readme);
  const named = new Set(spans);

  it('has files and names to check, each code span on one line', () => {
    expect(files.filter(isMapped).length).toBeGreaterThan(100);
    expect(named.size).toBeGreaterThan(100);
    // A span broken over two lines would pair the wrong backticks and hide the names after it.
    const unpaired = readme.split('\n').filter((line) => (line.match(/`/g) ?? []).length % 2 === 1);
    expect(unpaired).toEqual([]);
  });

  it('names every .ts, .tsx and .css file under src/', () => {
    // A name several files share (`types.ts`, `cline.ts`) says none of them: each of those is
    // named by a tail of its path (`strategies/cline/index.ts`), so a new file cannot hide behind an
    // older namesake.
    const mapped = files.filter(isMapped);
    const shared = new Set(mapped.map((f) => basename(f)).filter((n, i, all) => all.indexOf(n) !== i));
    const tails = spans.filter((s) => s.includes('/'));
    const isNamed = (f: string): boolean =>
      (!shared.has(basename(f)) && named.has(basename(f))) ||
      tails.some((t) => f === t || f.endsWith(`/${t}`));
    const missing = mapped.filter((f) => !isNamed(f));
    expect(
      missing,
      'add each to src/README.md as `file-name.ts` (as `folder/file-name.ts` where names repeat) with a few words',
    ).toEqual([]);
  });

  it('names no source file that is gone', () => {
    const stale = spans.filter((s) => /^[\w./-]+\.(ts|tsx|css)$/.test(s) && !namesExistingFile(s, files));
    expect(stale, 'remove or rename these in src/README.md').toEqual([]);
  });
});
