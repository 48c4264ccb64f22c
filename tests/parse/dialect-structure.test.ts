import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { DialectDescriptor, DialectInfo } from '../../src/engine/parse/dialects/descriptor';
import { DIALECT_INFOS } from '../../src/engine/parse/dialects/descriptors';
import { DIALECTS } from '../../src/engine/parse/dialects/registry';
import { FIXTURES } from './dialect-fixtures';

// Adding a dialect is a folder and a registry line (issue 17 §1, STYLE.md §3 and §11). This test
// holds the parse tree to that shape: each dialect id has a fixture and a golden dump; each folder
// under dialects/ is one family (its `index.ts` exports descriptors whose ids are the folder's
// name or start with it, its `info.ts` their infos: what the page imports, without the
// normalizers) and imports only its own files and the shared dialect code; and the generic parse
// code names no dialect id, so a new dialect never needs an edit there.

const ROOT = resolve(__dirname, '../..');
const PARSE = join(ROOT, 'src/engine/parse');
const DIALECTS_DIR = join(PARSE, 'dialects');
/** Folders under dialects/ that are not a dialect: code several dialects share. */
const SHARED_FOLDERS = new Set(['shared']);
/** The files under dialects/ a dialect's folder may import besides its own. */
const SHARED_IMPORTS = [
  /^\.\.\/descriptor$/,
  /^\.\.\/record$/,
  /^\.\.\/shared\/[\w-]+$/,
  /^\.\.\/\.\.\/\.\.\/(types|assert)$/,
];

const ids = DIALECTS.map((d) => d.id);
const folders = readdirSync(DIALECTS_DIR).filter(
  (name) => statSync(join(DIALECTS_DIR, name)).isDirectory() && !SHARED_FOLDERS.has(name),
);

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

/** The module specifiers a source file imports or re-exports from. */
const importsOf = (text: string): string[] =>
  [...text.matchAll(/^(?:import|export)\b[^;]*?\bfrom '([^']+)'/gms)].map((m) => m[1]!);

/** A dialect's folder: the id itself, or the id of the family it belongs to (`cline-ui` → `cline`). */
const folderOf = (id: string): string | undefined =>
  folders.filter((f) => id === f || id.startsWith(`${f}-`)).sort((a, b) => b.length - a.length)[0];

describe('every registered dialect', () => {
  it.each(ids)('%s has a fixture and a golden dump', (id) => {
    const fixtures = FIXTURES[id];
    expect(fixtures, `add a row for ${id} to tests/parse/dialect-fixtures.ts`).toBeDefined();
    expect(fixtures!.length, `${id} needs a fixture`).toBeGreaterThan(0);
    for (const fixture of fixtures!) {
      for (const f of fixture.files)
        if (typeof f === 'string') expect(existsSync(join(ROOT, f)), `fixture ${f}`).toBe(true);
      const golden = join(ROOT, 'tests/golden/parse', `${fixture.name}.txt`);
      expect(existsSync(golden), `golden ${relative(ROOT, golden)}`).toBe(true);
    }
  });

  it.each(ids)('%s lives in its own folder under dialects/', (id) => {
    expect(folderOf(id), `src/engine/parse/dialects/${id}/index.ts`).toBeDefined();
  });

  it('has no fixture row for an id the registry does not hold', () => {
    expect(Object.keys(FIXTURES).filter((id) => !ids.includes(id))).toEqual([]);
  });
});

describe('each dialect folder', () => {
  it('there are folders to check', () => {
    expect(folders.length).toBeGreaterThan(5);
  });

  it.each(folders)('%s: its index.ts exports only its own descriptors, all registered', async (folder) => {
    const index = join(DIALECTS_DIR, folder, 'index.ts');
    expect(existsSync(index), `${folder}/index.ts`).toBe(true);
    const module: Record<string, unknown> = await import(pathToFileURL(index).href);
    const exported = Object.values(module).filter(
      (v): v is DialectDescriptor =>
        typeof v === 'object' && v !== null && 'id' in v && 'files' in v && 'restoration' in v,
    );
    expect(exported.length, `${folder}/index.ts exports a descriptor`).toBeGreaterThan(0);
    for (const d of exported) {
      expect(folderOf(d.id), `${d.id} belongs in dialects/${d.id}/`).toBe(folder);
      expect(DIALECTS, `${d.id} has a line in registry.ts`).toContain(d);
    }
  });

  it.each(folders)(
    "%s: its info.ts exports its descriptors' infos, none with a normalizer",
    async (folder) => {
      const info = join(DIALECTS_DIR, folder, 'info.ts');
      expect(existsSync(info), `${folder}/info.ts`).toBe(true);
      const module: Record<string, unknown> = await import(pathToFileURL(info).href);
      const exported = Object.values(module).filter(
        (v): v is DialectInfo =>
          typeof v === 'object' && v !== null && 'id' in v && 'files' in v && 'restoration' in v,
      );
      expect(exported.length, `${folder}/info.ts exports an info`).toBeGreaterThan(0);
      for (const d of exported) {
        expect(folderOf(d.id), `${d.id} belongs in dialects/${d.id}/`).toBe(folder);
        expect(DIALECT_INFOS, `${d.id} has a line in descriptors.ts`).toContain(d);
        expect(d, `${d.id}'s info carries no normalizer`).not.toHaveProperty('createNormalizer');
      }
    },
  );

  it.each(folders)('%s: imports only its own files and the shared dialect code', (folder) => {
    const stray: string[] = [];
    for (const path of walk(join(DIALECTS_DIR, folder))) {
      if (!path.endsWith('.ts')) {
        stray.push(`${relative(ROOT, path)} is not a source file`);
        continue;
      }
      for (const spec of importsOf(readFileSync(path, 'utf8'))) {
        const own = spec.startsWith('./');
        if (!own && !SHARED_IMPORTS.some((re) => re.test(spec)))
          stray.push(`${relative(ROOT, path)}: '${spec}'`);
      }
    }
    expect(stray).toEqual([]);
  });
});

describe("the dialects' infos (what the page imports)", () => {
  it('name the same dialects as the registry, in the same order (detection asks in this order)', () => {
    expect(DIALECT_INFOS.map((d) => d.id)).toEqual(ids);
  });

  it.each(ids)(
    '%s: the descriptor is its info, a normalizer, a message reader, its model windows and file tools, and `parsed` says it has one',
    (id) => {
      const info = DIALECT_INFOS.find((d) => d.id === id)!;
      const {
        createNormalizer,
        createMessageReader: _reader,
        modelWindow: _window,
        fileTools: _fileTools,
        ...rest
      } = DIALECTS.find((d) => d.id === id)!;
      expect(rest).toEqual(info);
      expect(info.parsed).toBe(createNormalizer !== undefined);
    },
  );
});

describe('the generic parse code', () => {
  // Everything under parse/ outside the dialect folders, registry.ts and descriptors.ts aside (their
  // one line each).
  const core = walk(PARSE).filter(
    (p) =>
      p.endsWith('.ts') &&
      !folders.some((f) => p.startsWith(`${join(DIALECTS_DIR, f)}/`)) &&
      p !== join(DIALECTS_DIR, 'registry.ts') &&
      p !== join(DIALECTS_DIR, 'descriptors.ts'),
  );

  it('there are files to check', () => {
    expect(core.length).toBeGreaterThan(15);
  });

  it('names no dialect id (a dialect needs a hook on its descriptor, not a branch here)', () => {
    // An id as a word of its own (`'opencode'`, `cline-ui`), not inside a longer name.
    const patterns = ids.map((id) => new RegExp(`(?<![\\w-])${id}(?![\\w-])`));
    const hits: string[] = [];
    for (const path of core) {
      readFileSync(path, 'utf8')
        .split('\n')
        .forEach((line, k) => {
          const id = ids.find((_, i) => patterns[i]!.test(line));
          if (id) hits.push(`${relative(ROOT, path)}:${k + 1} names ${id}`);
        });
    }
    expect(hits).toEqual([]);
  });
});
