import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatSessionDump } from '../../src/engine/inspect/dump';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';

// Golden "diff tests" (STYLE.md §7): our own fixtures in, a readable dump out, one line per
// entry. A change in parsing shows up as a reviewable diff; `UPDATE_GOLDEN=1` rewrites them.

const ROOT = resolve(__dirname, '../..');
const GOLDEN = join(__dirname, 'golden');

const cases: { name: string; files: string[] }[] = [
  { name: 'tiny', files: ['tests/fixtures/tiny.jsonl'] },
  { name: 'broken', files: ['tests/fixtures/broken.jsonl'] },
  { name: 'xss', files: ['tests/fixtures/xss.jsonl'] },
  { name: 'cline', files: ['tests/fixtures/cline-api_conversation_history.json'] },
  { name: 'cline-ui', files: ['tests/fixtures/cline-task/ui_messages.json'] },
  {
    name: 'cline-task',
    files: [
      'tests/fixtures/cline-task/api_conversation_history.json',
      'tests/fixtures/cline-task/task_metadata.json',
      'tests/fixtures/cline-task/ui_messages.json',
    ],
  },
  { name: 'gemini-json', files: ['tests/fixtures/agents/session-2026-03-09T10-00-1a2b3c4d.json'] },
  { name: 'gemini-jsonl', files: ['tests/fixtures/agents/session-2026-03-09T11-00-5e6f7a8b.jsonl'] },
  { name: 'gemini-broken', files: ['tests/fixtures/agents/session-2026-03-09T13-00-9c0d1e2f.jsonl'] },
  {
    name: 'pi',
    files: ['tests/fixtures/agents/2026-03-09T12-00-00-000Z_7d3f0a52-6c1e-4b8a-9f27-3e5d1c0b8a64.jsonl'],
  },
  {
    name: 'pi-broken',
    files: ['tests/fixtures/agents/2026-03-09T14-00-00-000Z_0e9d8c7b-1a2b-4c3d-8e4f-5a6b7c8d9e0f.jsonl'],
  },
  {
    name: 'not-a-transcript',
    files: ['tests/fixtures/not-a-transcript.json', 'tests/fixtures/not-a-transcript.txt'],
  },
];

async function dump(files: string[], chunkBytes?: number): Promise<string> {
  // Re-import without the directory (speedscope's trick): names must not change the result.
  const sources = files.map((f) => createMemorySource(f.split('/').pop()!, readFileSync(join(ROOT, f))));
  return formatSessionDump(await parseSession(sources, { chunkBytes }));
}

describe('inspect dumps (golden)', () => {
  it.each(cases)('$name', async ({ name, files }) => {
    const actual = await dump(files);
    const path = join(GOLDEN, `${name}.txt`);
    if (process.env.UPDATE_GOLDEN || !existsSync(path)) {
      mkdirSync(GOLDEN, { recursive: true });
      writeFileSync(path, actual);
    }
    expect(actual).toBe(readFileSync(path, 'utf8'));
    // Tiny read chunks must give the same result (line-boundary bugs).
    expect(await dump(files, 5)).toBe(actual);
  });

  it('dumps the bundled sample the same at any chunk size', async () => {
    const index = JSON.parse(readFileSync(join(ROOT, 'public/samples/index.json'), 'utf8'));
    const files: string[] = index.files.map((f: { path: string }) => `public/samples/${f.path}`);
    expect(await dump(files, 4096)).toBe(await dump(files));
  });
});
