import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main';
import { capDepth, TOO_DEEP_TEXT } from '../../src/engine/parse/depth-cap';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';

// A tool input nested far deeper than any real one is valid JSON: `JSON.parse` reads it, but every
// recursion over it (`JSON.stringify`, the token estimate, erosion's fact collector) overflowed the
// stack, and the CLI lost the whole session ("Maximum call stack size exceeded", exit 1). One such
// record is one issue at its line; the session, its calls and every command still work.

const DEPTH = 200_000;
const deep = `${'{"a":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}`;

/** The tiny fixture (a real-shaped Claude Code session) with its first tool input nested `DEPTH` deep. */
function deepSession(): { text: string; line: number } {
  const lines = readFileSync(join(__dirname, '../fixtures/tiny.jsonl'), 'utf8').trimEnd().split('\n');
  const k = lines.findIndex((l) => l.includes('"type":"tool_use"'));
  expect(k).toBeGreaterThan(0);
  const record = JSON.parse(lines[k]!);
  const use = record.message.content.find((b: { type: string }) => b.type === 'tool_use');
  use.input = { command: 'ls', nested: '__DEEP__' };
  lines[k] = JSON.stringify(record).replace('"__DEEP__"', deep);
  return { text: `${lines.join('\n')}\n`, line: k + 1 };
}

describe('a record nested 200,000 deep', () => {
  it('is one warning at its line; every entry and API call of the session still loads', async () => {
    const { text, line } = deepSession();
    const plain = await parseSession([
      createMemorySource('s.jsonl', readFileSync(join(__dirname, '../fixtures/tiny.jsonl'))),
    ]);
    const session = await parseSession([createMemorySource('s.jsonl', text)]);
    expect(session.issues).toEqual([
      expect.objectContaining({ line, code: 'unreadable-record', path: expect.stringContaining('.input') }),
    ]);
    expect(session.entries.length).toBe(plain.entries.length);
    expect(session.apiCalls.length).toBe(plain.apiCalls.length);
  });

  it('leaves every CLI command working (exit 0), not "Maximum call stack size exceeded"', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'compactlab-deep-'));
    const file = join(dir, 'deep.jsonl');
    writeFileSync(file, deepSession().text);
    const commands = [
      ['inspect', file],
      ['replay', file],
      ['export', file, '--md', '-o', join(dir, 'e.md')],
      ['export', file, '--jsonl', '--redact', '-o', join(dir, 'e.jsonl')],
      ['export', file, '--json', '-o', join(dir, 'e.json')],
      ['report', file, '-o', join(dir, 'r.html')],
      ['erosion', file, '--replay'],
    ];
    const failed: string[] = [];
    for (const argv of commands) {
      const out: string[] = [];
      const code = await main(argv, (t) => out.push(t));
      if (code !== 0) failed.push(`${argv.slice(0, 2).join(' ')}: exit ${code}`);
    }
    expect(failed).toEqual([]);
  }, 60_000);

  it('capDepth cuts what lies deeper than the bound, iteratively, and leaves shallow values alone', () => {
    const shallow = { a: [1, { b: 'x' }] };
    expect(capDepth(structuredClone(shallow))).toEqual(shallow);
    const cut = capDepth(JSON.parse(deep), 3) as { a: { a: { a: unknown } } };
    expect(cut.a.a.a).toBe(TOO_DEEP_TEXT);
    expect(JSON.stringify(capDepth(JSON.parse(deep))).length).toBeLessThan(10_000);
  });
});
