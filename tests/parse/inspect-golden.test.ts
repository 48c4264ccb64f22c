import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatSessionDump } from '../../src/engine/inspect/dump';
import { DIALECTS } from '../../src/engine/parse/dialects/registry';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import type { DialectId } from '../../src/engine/types';
import { CODEX_ROLLOUT } from '../fixtures/codex-rollout';
import { buildOpenCodeFixtures } from '../fixtures/make-opencode-fixtures';
import { expectGolden } from '../helpers/golden';

// Golden "diff tests" (STYLE.md §7): our own fixtures in, a readable dump out, one line per
// entry. A change in parsing shows up as a reviewable diff; `UPDATE_GOLDEN=1` rewrites them.
// Every registered dialect with a normalizer has a row below, and every fixture is parsed three
// ways that must agree: under its own names, renamed `unknown` (detection from structure alone;
// names must not change the result), and read in tiny chunks (line-boundary bugs).

const ROOT = resolve(__dirname, '../..');
/** Bytes per read for the tiny-chunk pass: smaller than any record, so every line crosses reads. */
const TINY_CHUNK_BYTES = 7;

interface Fixture {
  /** Golden file name under `golden/parse/`. */
  name: string;
  /** Repository paths, or an in-memory file. */
  files: (string | { name: string; text: string })[];
  /**
   * Set when the renamed files cannot give the same dump, with the reason: the dialect (or a file's
   * role in the set) is recognisable by name only.
   */
  nameOnly?: string;
}

const OPENCODE = buildOpenCodeFixtures();

const FIXTURES: Record<DialectId, Fixture[]> = {
  'claude-code': [
    { name: 'tiny', files: ['tests/fixtures/tiny.jsonl'] },
    { name: 'broken', files: ['tests/fixtures/broken.jsonl'] },
    { name: 'xss', files: ['tests/fixtures/xss.jsonl'] },
  ],
  'codex-cli': [
    {
      name: 'codex-rollout',
      files: [{ name: 'rollout-2026-05-01T09-00-00-sess-1.jsonl', text: `${CODEX_ROLLOUT}\n` }],
    },
  ],
  cline: [{ name: 'cline', files: ['tests/fixtures/cline-api_conversation_history.json'] }],
  'cline-ui': [{ name: 'cline-ui', files: ['tests/fixtures/cline-task/ui_messages.json'] }],
  'cline-task-metadata': [
    {
      name: 'cline-task',
      files: [
        'tests/fixtures/cline-task/api_conversation_history.json',
        'tests/fixtures/cline-task/task_metadata.json',
        'tests/fixtures/cline-task/ui_messages.json',
      ],
      nameOnly:
        "a task folder's roles (the UI log the main file, the API history and the metadata its content) come from the names Cline gives them",
    },
  ],
  'gemini-cli-json': [
    { name: 'gemini-json', files: ['tests/fixtures/agents/session-2026-03-09T10-00-1a2b3c4d.json'] },
  ],
  'gemini-cli': [
    { name: 'gemini-jsonl', files: ['tests/fixtures/agents/session-2026-03-09T11-00-5e6f7a8b.jsonl'] },
    { name: 'gemini-broken', files: ['tests/fixtures/agents/session-2026-03-09T13-00-9c0d1e2f.jsonl'] },
  ],
  pi: [
    {
      name: 'pi',
      files: ['tests/fixtures/agents/2026-03-09T12-00-00-000Z_7d3f0a52-6c1e-4b8a-9f27-3e5d1c0b8a64.jsonl'],
    },
    {
      name: 'pi-broken',
      files: ['tests/fixtures/agents/2026-03-09T14-00-00-000Z_0e9d8c7b-1a2b-4c3d-8e4f-5a6b7c8d9e0f.jsonl'],
    },
  ],
  'anthropic-messages': [
    { name: 'anthropic-trace', files: ['tests/fixtures/api/log-2026-03-09-10-00-00.jsonl'] },
    { name: 'anthropic-request', files: ['tests/fixtures/api/request.json'] },
    { name: 'anthropic-broken', files: ['tests/fixtures/api/broken.anthropic.jsonl'] },
  ],
  'anthropic-messages-json': [
    { name: 'anthropic-list', files: ['tests/fixtures/api/session.anthropic.json'] },
  ],
  // One file per record, in the order OpenCode wrote them (the renamed pass reads them in this
  // order; under their names, by id).
  opencode: [
    { name: 'opencode', files: OPENCODE.session.map(([path]) => `tests/fixtures/opencode/${path}`) },
    {
      name: 'opencode-broken',
      files: OPENCODE.broken.map(([path]) => `tests/fixtures/opencode/${path}`),
      nameOnly: "a record file cut off mid-write is known as OpenCode's by its name only",
    },
  ],
  // Recognised only (no normalizer): its detection is checked in tests/parse/parse.test.ts.
  'claude-sdk-stream': [],
};

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
  // rest is compared as is. A lone file's `unknown` is put back in the header only.
  if (fixture.files.length === 1) {
    const [header = '', ...rest] = text.split('\n');
    return [header.replace('unknown(', `${ownName(fileName(fixture, 0))}(`), ...rest].join('\n');
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
    if (!dialect.createNormalizer) {
      expect(fixtures, 'a recognised-only dialect has no parse fixture').toEqual([]);
      return;
    }
    expect(fixtures.length, `${dialect.id} parses, so it needs a golden fixture`).toBeGreaterThan(0);
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
