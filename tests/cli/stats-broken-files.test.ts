import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli';
import { corpusOrSkip, FOREIGN } from '../helpers/corpus';

// `compactlab stats` over a team's folder where some files are broken: a real Codex rollout cut in
// the middle of its last record (a copy taken while it was written), binary data named .jsonl and
// an empty .jsonl. Before, each was a row with only a count of issues: the cut session's
// 'issueErrors: 1', the binary file's an empty agent, 0 calls, 'issueErrors: 1' and 'error: null',
// the empty one's 'issueWarnings: 1'; which line and why took an `inspect` of each file, and
// the run's stderr named none of them; under --strategy the binary and empty files were 'sessions
// with no API call, nothing to replay'. Now a row names its first issue's file, line and reason
// (firstIssue), a file read as no transcript carries inspect's reason as its error, and stderr
// names each one not read.

const ROLLOUT = join(
  FOREIGN,
  'Redaration__praxis3/.codex/sessions/2025/10/19/rollout-2025-10-19T19-26-51-0199fdf0-5aa9-73a1-97af-7a759d33c95f.jsonl',
);
const present = corpusOrSkip('stats over broken copies of a real Codex rollout');

describe.skipIf(!present)('stats: a broken file says which line and why', () => {
  it('a cut session keeps its rows and names its cut line; binary and empty files name their reason', async () => {
    const root = mkdtempSync(join(tmpdir(), 'compactlab-stats-broken-'));
    const folder = join(root, 'sessions');
    mkdirSync(folder);
    const raw = readFileSync(ROLLOUT);
    // Cut half-way into its last record: the lines before it whole, as a plain count reads them.
    const lastStart = raw.lastIndexOf(10, raw.length - 2) + 1;
    const cut = raw.subarray(0, lastStart + Math.floor((raw.length - lastStart) / 2));
    const wholeLines = cut.subarray(0, lastStart).toString('utf8').split('\n').length - 1;
    const cutFile = join(folder, 'rollout-2025-10-19T19-26-51-0199fdf0-5aa9-73a1-97af-7a759d33c95f.jsonl');
    writeFileSync(cutFile, cut);
    const binary = join(folder, 'rollout-2025-10-20T10-00-00-0199fdf0-0000-7000-8000-000000000001.jsonl');
    const fd = openSync(binary, 'w');
    // Bytes no text holds (a seeded sequence with NULs), as a core dump or a picture would be.
    const bytes = Buffer.alloc(4096);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 131 + 7) % 256;
    writeSync(fd, bytes);
    closeSync(fd);
    const empty = join(folder, 'rollout-2025-10-21T10-00-00-0199fdf0-0000-7000-8000-000000000002.jsonl');
    writeFileSync(empty, '');

    const { code, lines, err } = await runCli(['stats', folder, '--jobs', '0']);
    expect(code).toBe(0);
    const rows = new Map(lines.map((l) => JSON.parse(l) as Record<string, unknown>).map((r) => [r.file, r]));
    expect(rows.size).toBe(3);

    const session = rows.get(cutFile)!;
    expect(session.apiCalls).toBeGreaterThan(50); // the whole lines still load
    expect(session.error).toBeNull();
    expect(session.issueErrors).toBe(1);
    expect(session.firstIssue).toMatch(
      new RegExp(
        `^${cutFile.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:${wholeLines + 1}: Line ${wholeLines + 1} is cut off`,
      ),
    );

    expect(rows.get(binary)!.error).toMatch(/is not a transcript: it is binary data, not text$/);
    expect(rows.get(empty)!.error).toMatch(/is empty: there is nothing to show$/);
    expect(err).toContain(`compactlab stats: ${binary}: `);
    expect(err).toContain(`compactlab stats: ${empty}: `);
    expect(err).toContain('2 of 3 sessions could not be read');

    // Under a strategy both were said as sessions with no API call to replay.
    const what = await runCli(['stats', folder, '--strategy', 'codex', '--sessions', '--jobs', '0']);
    const errors = what.lines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((r) => r.error !== null);
    expect(new Map(errors.map((r) => [r.file, r.error]))).toEqual(
      new Map([
        [binary, rows.get(binary)!.error],
        [empty, rows.get(empty)!.error],
      ]),
    );
    expect(what.err).not.toContain('no API call');
    expect(what.err).toContain('2 of 3 sessions could not be read');

    // None read: exit 1, as inspect's (it was 0, a script took the run for done).
    for (const args of [[], ['--strategy', 'codex']]) {
      const none = await runCli(['stats', binary, empty, ...args, '--jobs', '0']);
      expect(none.code, args.join(' ')).toBe(1);
      expect(none.err).toContain('2 of 2 sessions could not be read');
    }
  });
});
