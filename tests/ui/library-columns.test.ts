import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createNodeFileSource } from '../../src/cli/node-source';
import type { LibraryRow } from '../../src/engine/library/library-row';
import { scanSession } from '../../src/engine/library/scan-session';
import { countCompactions } from '../../src/engine/parse/main-thread';
import { parseSession } from '../../src/engine/parse/parse-session';
import { type ByteSource, createMemorySource } from '../../src/engine/parse/source';
import { getSessionOverview } from '../../src/engine/query/session-overview';
import { generateSession } from '../../sample/generate-session';
import { CORPUS, corpusOrSkip } from '../helpers/corpus';
import { countCompactBoundaries } from '../helpers/plain-count';
import { getProjectName, LIBRARY_COLUMNS, selectSessions } from '../../src/ui/library/library-columns';
import type { LibrarySession } from '../../src/ui/library/library-store';

function session(key: string, cwd: string | undefined): LibrarySession {
  const row = {
    agent: 'Claude Code',
    versions: ['2.1.19'],
    models: [],
    cwd,
    apiCalls: 1,
  } as unknown as LibraryRow;
  return { key, root: 'projects', sizeBytes: 1, fileCount: 1, row };
}

describe('library columns', () => {
  it('names a project by the last folder of its working directory', () => {
    expect(getProjectName('/home/mira/code/tally')).toBe('tally');
    expect(getProjectName('/home/mira/code/tally/')).toBe('tally');
    expect(getProjectName('C:\\Users\\ada\\garden')).toBe('garden');
    expect(getProjectName('/')).toBe('/');
  });

  it('shows the project name, keeps the whole path as the hint, and sorts by the name shown', () => {
    const project = LIBRARY_COLUMNS.find((c) => c.key === 'project')!;
    const a = session('a.jsonl', '/srv/zeta/tally');
    const b = session('b.jsonl', '/home/ada/garden');
    const c = session('c.jsonl', undefined);
    expect(project.text(a, a.row!)).toBe('tally');
    expect(project.hint?.(a, a.row!)).toBe('/srv/zeta/tally');
    expect(project.text(c, c.row!)).toBe('–');
    // By the whole path /a/zebra would come first; by the name shown it is last.
    const d = session('d.jsonl', '/a/zebra');
    const sorted = selectSessions([a, b, c, d], { key: 'project', descending: false }, '', '');
    expect(sorted.map((s) => s.key)).toEqual(['c.jsonl', 'b.jsonl', 'a.jsonl', 'd.jsonl']);
    // The search still reads the whole path.
    expect(
      selectSessions([a, b, d], { key: 'start', descending: true }, 'srv/zeta', '').map((s) => s.key),
    ).toEqual(['a.jsonl']);
  });

  it('names a log with neither a name nor a prompt by its file, so such rows tell apart', () => {
    const prompt = LIBRARY_COLUMNS.find((c) => c.key === 'prompt')!;
    const empty = session('projects/-home-x/empty.jsonl', undefined);
    const db = session('opencode/opencode.db#ses_42', undefined);
    expect(prompt.text(empty, empty.row!)).toBe('empty.jsonl');
    expect(prompt.hint?.(empty, empty.row!)).toBe('No name nor prompt in this log: its file');
    expect(prompt.text(db, db.row!)).toBe('ses_42');
    const asked = { ...empty, row: { ...empty.row!, firstPrompt: 'List the beds' } as LibraryRow };
    expect(prompt.text(asked, asked.row!)).toBe('List the beds');
    expect(prompt.hint?.(asked, asked.row!)).toBeUndefined();
    // Sorted by the Session column, the nameless still sort as empty (first, ascending).
    expect(prompt.value(empty, empty.row!)).toBe('');
  });

  it('sorts the agent column by version, the digits read as numbers', () => {
    // The versions of /tmp/cctree's Claude Code sessions: sorted as plain strings the list read
    // 1.0.108, 1.0.128, 1.0.24, … 2.1.101, 2.1.114, 2.1.12, … 2.1.87, 2.1.9.
    const versions = ['2.1.9', '2.1.101', '1.0.24', '2.1.87', '2.1.12', '1.0.108', '2.1.229', '2.1.19'];
    const sessions = versions.map((v) => {
      const s = session(`${v}.jsonl`, '/p');
      return { ...s, row: { ...s.row!, versions: ['1.0.0', v] } as LibraryRow };
    });
    const agent = LIBRARY_COLUMNS.find((c) => c.key === 'agent')!;
    const shown = (descending: boolean) =>
      selectSessions(sessions, { key: 'agent', descending }, '', '').map((s) => agent.text(s, s.row!));
    const ascending = ['1.0.24', '1.0.108', '2.1.9', '2.1.12', '2.1.19', '2.1.87', '2.1.101', '2.1.229'];
    expect(shown(false)).toEqual(ascending.map((v) => `Claude Code ${v}`));
    expect(shown(true)).toEqual(ascending.map((v) => `Claude Code ${v}`).reverse());
  });

  it("says a broken log's first unread line on the Unread cell's hint", () => {
    const issues = LIBRARY_COLUMNS.find((c) => c.key === 'issues')!;
    const s = session('x.jsonl', '/p');
    const broken = {
      ...s,
      row: { ...s.row!, issues: 5, unread: 3, firstIssue: 'line 4: not valid JSON' } as LibraryRow,
    };
    expect(issues.text(broken, broken.row!)).toBe('3');
    expect(issues.hint?.(broken, broken.row!)).toBe('First: line 4: not valid JSON');
    expect(issues.hint?.(s, s.row!)).toBeUndefined();
  });

  it('gives the agent column its whole text on hover (a pre-release version is cut at 9rem)', () => {
    const agent = LIBRARY_COLUMNS.find((c) => c.key === 'agent')!;
    const s = session('x.jsonl', '/p');
    const codex = { ...s, row: { ...s.row!, agent: 'Codex CLI', versions: ['0.118.0', '0.119.0-alpha.28'] } };
    expect(agent.text(codex, codex.row as LibraryRow)).toBe('Codex CLI 0.119.0-alpha.28');
    expect(agent.hint?.(codex, codex.row as LibraryRow)).toBe('Codex CLI 0.118.0, 0.119.0-alpha.28');
    const unknown = { ...s, row: { ...s.row!, agent: '', versions: [] } };
    expect(agent.text(unknown, unknown.row as LibraryRow)).toBe('?');
    expect(agent.hint?.(unknown, unknown.row as LibraryRow)).toBe('No agent recognised in this log');
  });

  it("shows the agent's own cost where no call could be priced, marked as its", () => {
    const cost = LIBRARY_COLUMNS.find((c) => c.key === 'cost')!;
    const row = (fields: Partial<LibraryRow>) => {
      const s = session('x.jsonl', '/p');
      return { ...s, row: { ...s.row!, ...fields } as LibraryRow };
    };
    const cline = row({ costUsd: 0, unpricedCalls: 60, statedCostUsd: 0.3095 });
    expect(cost.text(cline, cline.row!)).toBe('≈$0.31');
    expect(cost.value(cline, cline.row!)).toBe(0.3095);
    const none = row({ costUsd: 0, unpricedCalls: 60 });
    expect(cost.text(none, none.row!)).toBe('–');
    // Priced calls keep the list-price figure, the stated one aside.
    const priced = row({ costUsd: 1.5, unpricedCalls: 0, statedCostUsd: 1.2 });
    expect(cost.text(priced, priced.row!)).toBe('$1.50');
  });
});

// The list's Issues column counted the issues the scan met, the header the full parse's: on a real
// session the header said "1 parse issue" (a note only the whole read makes) where the list said 0.
// The column counts what could not be read (bad lines, files that are no transcript), a plain
// count, and the header's count says how many of its issues those are.
describe('the Unread column: a plain count of the bad lines, as the header says them', () => {
  const plainBadLines = (text: string) =>
    text.split('\n').filter((line) => {
      if (line.trim() === '') return false;
      try {
        JSON.parse(line);
        return false;
      } catch {
        return true;
      }
    }).length;
  const check = async (sources: () => ByteSource[], plain: number) => {
    const row = await scanSession(sources());
    const overview = getSessionOverview(await parseSession(sources()));
    const column = LIBRARY_COLUMNS.find((c) => c.key === 'issues')!;
    const s: LibrarySession = { key: 'x', root: 'projects', sizeBytes: 1, fileCount: 1, row };
    expect(column.label).toBe('Unread');
    expect(column.text(s, row)).toBe(String(plain));
    expect(overview.unread).toBe(plain);
    return { row, overview };
  };

  it('a generated log with bad lines and a cut-off end', async () => {
    const { files } = generateSession({ seed: 5, apiCalls: 80 });
    const main = files[0]!;
    const lines = main.text.trimEnd().split('\n');
    lines.splice(30, 0, 'not json', '{"type":"assistant","message":{"role":');
    lines.splice(60, 0, '}{');
    const text = `${lines.join('\n')}\n{"type":"user","message":`;
    const { row } = await check(() => [createMemorySource(main.name, text)], 4);
    expect(row.firstIssue).toMatch(/^line 31: /);
  });

  it.runIf(corpusOrSkip('the Unread column on a real session'))(
    'a real session whose full read notes what the scan cannot (05541cb5: 1 note, 0 bad lines)',
    async () => {
      const main = join(
        CORPUS,
        'LAF-US__IDAHO-VAULT',
        'claude__projects__c--Users-loganf-Documents-IDAHO-VAULT__05541cb5-fe43-41c9-87ef-2a6d89bba271.jsonl',
      );
      const { row, overview } = await check(
        () => [createNodeFileSource(main)],
        plainBadLines(readFileSync(main, 'utf8')),
      );
      // The header's "1 parse issue": a note the scan, which skips the answers' text, cannot make.
      expect(overview.issueCounts).toEqual({ error: 0, warning: 0, info: 1 });
      expect(row.issues).toBe(0);
    },
  );
});

// A real session whose subagents compacted: its header says "6 compactions · 9 in subagents"; the
// library's row said "6 / 0 / 0µ" and nothing of the subagents' 9.
describe.runIf(corpusOrSkip('the library row of a session whose subagents compacted'))(
  'the compactions column of a session whose subagents compacted (the corpus)',
  () => {
    it('says the subagents’ compactions apart, as the header does, each counted plainly', async () => {
      const dir = join(CORPUS, 'LAF-US__IDAHO-VAULT');
      const stem =
        'claude__projects__c--Users-loganf-Documents-IDAHO-VAULT__05541cb5-fe43-41c9-87ef-2a6d89bba271';
      const main = join(dir, `${stem}.jsonl`);
      const subagents = readdirSync(dir)
        .filter((f) => f.startsWith(`${stem}__subagents__`) && f.endsWith('.jsonl'))
        .map((f) => join(dir, f));
      const inSubagents = subagents.reduce((n, f) => n + countCompactBoundaries(f), 0);
      expect(countCompactBoundaries(main)).toBe(6);
      expect(inSubagents).toBe(9);
      const sources = () => [main, ...subagents].map((f) => createNodeFileSource(f));
      const row = await scanSession(sources());
      // The header's figures (session-header.tsx reads countCompactions of the full parse).
      const header = countCompactions(await parseSession(sources()));
      expect(header.inSubagents).toBe(inSubagents);
      expect(row.compactions).toEqual(header);
      const column = LIBRARY_COLUMNS.find((c) => c.key === 'compactions')!;
      const s: LibrarySession = { key: 'x', root: 'projects', sizeBytes: 1, fileCount: 1, row };
      expect(column.text(s, row)).toBe('6 / 0 / 0µ +9');
      expect(column.hint?.(s, row)).toBe('6 on the main thread · 9 in subagents');
      // Sorted by the main thread's, as the header's first figure.
      expect(column.value(s, row)).toBe(6);
    });
  },
);
