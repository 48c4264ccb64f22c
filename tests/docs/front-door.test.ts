import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// The README is the front door: short, its first lines the two commands that work on a fresh
// machine, and every relative link of it, CONTRIBUTING.md and docs/ lands on a file and a heading
// (or an `<a id>`) that exist.

const ROOT = resolve(__dirname, '../..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const PAGES = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(join(ROOT, 'docs')).map((f) => `docs/${f}`),
].filter((p) => p.endsWith('.md'));

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- _]/gu, '')
    .replace(/ /g, '-');

function anchorsOf(path: string): Set<string> {
  const text = read(path);
  return new Set([
    ...[...text.matchAll(/<a id="([\w-]+)"><\/a>/g)].map((m) => m[1]!),
    ...[...text.matchAll(/^#+ (.+)$/gm)].map((m) => slug(m[1]!)),
  ]);
}

describe('the front door', () => {
  it('README: at most 150 lines, opening with the start and test commands', () => {
    const readme = read('README.md');
    expect(readme.split('\n').length).toBeLessThanOrEqual(150);
    const head = readme.split('\n').slice(0, 8).join('\n');
    expect(head).toMatch(/^npm (install|ci) && npm start\b/m);
    expect(head).toMatch(/^npm test\b/m);
    expect(readme).toContain('](docs/screenshot.png)');
  });

  it.each(PAGES)('%s: every relative link resolves', (page) => {
    const text = read(page).replace(/```[\s\S]*?```/g, '');
    const broken: string[] = [];
    for (const [, url] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(url!)) continue;
      const [path, anchor] = url!.split('#');
      const target = path ? normalize(join(dirname(page), path)) : page;
      if (!existsSync(join(ROOT, target))) broken.push(`${url} (no file)`);
      else if (anchor && target.endsWith('.md') && !anchorsOf(target).has(anchor))
        broken.push(`${url} (no anchor)`);
    }
    expect(broken).toEqual([]);
  });
});
