import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatSessionDump } from '../../src/engine/inspect/dump';
import { DIALECTS } from '../../src/engine/parse/dialects/registry';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { expectGolden } from '../helpers/golden';
import { type Fixture, FIXTURES } from './dialect-fixtures';

// Golden "diff tests" (STYLE.md §7): our own fixtures in, a readable dump out, one line per
// entry. A change in parsing shows up as a reviewable diff; `UPDATE_GOLDEN=1` rewrites them.
// Every registered dialect has a row in dialect-fixtures.ts, and every fixture is parsed three
// ways that must agree: under its own names, renamed `unknown` (detection from structure alone;
// names must not change the result), and read in tiny chunks (line-boundary bugs).

const ROOT = resolve(__dirname, '../..');
/** Bytes per read for the tiny-chunk pass: smaller than any record, so every line crosses reads. */
const TINY_CHUNK_BYTES = 7;

/** Files no dialect claims: detection must say so, the same way under any name. */
const NOT_TRANSCRIPTS: Fixture = {
  name: 'not-a-transcript',
  files: ['tests/fixtures/not-a-transcript.json', 'tests/fixtures/not-a-transcript.txt'],
};

type Naming = 'own' | 'unknown';

/** The fixture's files as sources, under their own base names or renamed `unknown`. */
function sources(fixture: Fixture, naming: Naming) {
  return fixture.files.map((f, k) => {
    const file = typeof f === 'string' ? { name: f, text: readFileSync(join(ROOT, f)) } : f;
    return createMemorySource(naming === 'own' ? ownName(file.name) : renamed(fixture, k), file.text);
  });
}

// Without the directory (speedscope's trick): the folder a fixture sits in must not matter.
const ownName = (path: string) => path.split('/').pop() ?? path;
const renamed = (fixture: Fixture, k: number) => (fixture.files.length === 1 ? 'unknown' : `unknown-${k}`);

async function dump(fixture: Fixture, naming: Naming, chunkBytes?: number): Promise<string> {
  const text = formatSessionDump(await parseSession(sources(fixture, naming), { chunkBytes }));
  if (naming === 'own') return text;
  // The header (and an issue about a file) names the files: put the own names back there so the
  // rest is compared as is. A lone file's `unknown` is put back in the header, and in an issue
  // that opens with the file's name (a refusal: "<name> is a …").
  if (fixture.files.length === 1) {
    const own = ownName(fileName(fixture, 0));
    const [header = '', ...rest] = text.split('\n');
    return [
      header.replace('unknown(', `${own}(`),
      ...rest.map((line) => line.replace(/^( {2}f0:L\d+ \w+ [\w-]+: )unknown /, `$1${own} `)),
    ].join('\n');
  }
  return fixture.files.reduce<string>(
    (out, _f, k) =>
      out.replace(new RegExp(`\\b${renamed(fixture, k)}\\b`, 'g'), ownName(fileName(fixture, k))),
    text,
  );
}

function fileName(fixture: Fixture, k: number): string {
  const f = fixture.files[k];
  if (f === undefined) throw new RangeError(`fixture ${fixture.name} has no file ${k}`);
  return typeof f === 'string' ? f : f.name;
}

async function expectFixture(fixture: Fixture): Promise<void> {
  const actual = await dump(fixture, 'own');
  expectGolden(`golden/parse/${fixture.name}`, actual);
  expect(await dump(fixture, 'own', TINY_CHUNK_BYTES), 'tiny read chunks').toBe(actual);
  const renamed = await dump(fixture, 'unknown');
  if (fixture.nameOnly) expect(renamed, `renamed (${fixture.nameOnly})`).not.toBe(actual);
  else expect(renamed, 'renamed `unknown`: detected from structure').toBe(actual);
}

describe('inspect dumps (golden), every registered dialect', () => {
  it.each(DIALECTS.map((d) => d))('$id', async (dialect) => {
    const fixtures = FIXTURES[dialect.id];
    if (fixtures === undefined) throw new Error(`add a row for ${dialect.id} to FIXTURES`);
    expect(fixtures.length, `${dialect.id} needs a golden fixture`).toBeGreaterThan(0);
    for (const fixture of fixtures) {
      const session = await parseSession(
        fixture.files.map((f) =>
          typeof f === 'string'
            ? createMemorySource(f, readFileSync(join(ROOT, f)))
            : createMemorySource(f.name, f.text),
        ),
      );
      expect(
        session.files.map((f) => f.dialect),
        `${fixture.name} holds a ${dialect.id} file`,
      ).toContain(dialect.id);
      await expectFixture(fixture);
    }
  });

  it('not a transcript', async () => {
    await expectFixture(NOT_TRANSCRIPTS);
  });

  it('dumps the bundled sample the same at any chunk size', async () => {
    const index = JSON.parse(readFileSync(join(ROOT, 'public/samples/index.json'), 'utf8'));
    const files: string[] = index.files.map((f: { path: string }) => `public/samples/${f.path}`);
    const sample: Fixture = { name: 'sample', files };
    expect(await dump(sample, 'own', 4096)).toBe(await dump(sample, 'own'));
  });
});
