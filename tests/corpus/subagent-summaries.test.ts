import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main';
import { CORPUS, corpusOrSkip } from '../helpers/corpus';

// `compactlab export --md|--json` (and the page's Summaries export, the same collector) wrote the
// main thread's summaries only, though a real session's four subagents compacted their own
// contexts nine times, each with a summary in its log. Checked against a plain count of the raw
// records: each subagent log's `compact_boundary` lines and the `isCompactSummary` text after each.

const present = corpusOrSkip('subagent summaries export corpus test');
const DIR = join(CORPUS, 'LAF-US__IDAHO-VAULT');
const SESSION = '05541cb5-fe43-41c9-87ef-2a6d89bba271';
const out = mkdtempSync(join(tmpdir(), 'compactlab-subsum-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** Each subagent log's recorded summaries, in order, read with JSON.parse alone. */
function plainSummaries(files: readonly string[]): Map<string, string[]> {
  const bySubagent = new Map<string, string[]>();
  for (const file of files) {
    const id = /agent-([a-z0-9]+)\.jsonl$/.exec(file)?.[1];
    if (!id) continue;
    const texts: string[] = [];
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line.includes('"isCompactSummary"')) continue;
      const r = JSON.parse(line);
      if (r.isCompactSummary !== true) continue;
      const c = r.message?.content;
      texts.push(
        typeof c === 'string'
          ? c
          : (c as { type: string; text?: string }[])
              .filter((b) => b.type === 'text')
              .map((b) => b.text)
              .join('\n'),
      );
    }
    if (texts.length > 0) bySubagent.set(id, texts);
  }
  return bySubagent;
}

describe.skipIf(!present)('corpus: a session’s subagents’ summaries in the summaries export', () => {
  const files = present
    ? readdirSync(DIR)
        .filter((f) => f.includes(SESSION) && f.endsWith('.jsonl'))
        .sort()
        .map((f) => join(DIR, f))
    : [];

  it('--json: each subagent’s summaries, numbered in its own log, the texts its records hold', async () => {
    const target = join(out, 's.json');
    expect(await main(['export', ...files, '--json', '-o', target], () => {})).toBe(0);
    const { summaries } = JSON.parse(readFileSync(target, 'utf8')) as {
      summaries: {
        text: string;
        label: string;
        thread?: { subagent: string; index: number; total: number };
      }[];
    };
    const plain = plainSummaries(files);
    expect([...plain.values()].flat()).toHaveLength(9);
    const exported = summaries.filter((s) => s.thread);
    expect(exported).toHaveLength(9);
    for (const [id, texts] of plain) {
      const mine = exported.filter((s) => s.thread!.subagent === id);
      expect(
        mine.map((s) => s.text.trim()),
        id,
      ).toEqual(texts.map((t) => t.trim()));
      expect(mine.map((s) => [s.thread!.index, s.thread!.total])).toEqual(
        texts.map((_, i) => [i, texts.length]),
      );
      expect(mine[0]!.label).toMatch(new RegExp(`^compaction 1 of ${texts.length} \\(auto\\) at line \\d+$`));
    }
    // The main thread's come first, unchanged: its file's own summaries.
    const mainCount = readFileSync(files[0]!, 'utf8')
      .split('\n')
      .filter((l) => /"isCompactSummary":\s*true/.test(l)).length;
    expect(summaries.filter((s) => !s.thread)).toHaveLength(mainCount);
    expect(summaries.slice(0, mainCount).every((s) => !s.thread)).toBe(true);
  });

  it('--md: a heading per subagent, its summaries under it', async () => {
    const target = join(out, 's.md');
    expect(await main(['export', ...files, '--md', '-o', target], () => {})).toBe(0);
    const md = readFileSync(target, 'utf8');
    const plain = plainSummaries(files);
    expect(md).toContain('· 9 more in subagents (below)');
    for (const [id, texts] of plain) {
      const at = md.indexOf(`## Subagent ${id}\n`);
      expect(at, id).toBeGreaterThan(0);
      const section = md.slice(at).split(/\n## /)[0]!;
      expect(section.match(/^### Recorded: compaction \d+ of \d+/gm), id).toHaveLength(texts.length);
      expect(section).toContain(`### Recorded: compaction ${texts.length} of ${texts.length} (auto)`);
    }
  });
});

describe.skipIf(!present)('corpus: the one-file report lists the subagents’ summaries too', () => {
  it('report: each subagent summary under its own section, its text escaped whole', async () => {
    const files = readdirSync(DIR)
      .filter((f) => f.includes(SESSION) && f.endsWith('.jsonl'))
      .sort()
      .map((f) => join(DIR, f));
    const target = join(out, 'r.html');
    expect(await main(['report', ...files, '-o', target], () => {})).toBe(0);
    const html = readFileSync(target, 'utf8');
    const plain = plainSummaries(files);
    const section = html.slice(html.indexOf('<section id="subagent-summaries">'));
    expect(section.startsWith('<section id="subagent-summaries">')).toBe(true);
    const body = section.slice(0, section.indexOf('</section>'));
    for (const [id, texts] of plain)
      expect(
        body.match(new RegExp(`<h3>Subagent ${id}: compaction \\d+ of ${texts.length}`, 'g')),
        id,
      ).toHaveLength(texts.length);
    expect(body.match(/<article class="summary">/g)).toHaveLength(9);
  });
});
