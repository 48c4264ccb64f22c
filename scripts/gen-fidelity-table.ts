// Writes the README's fidelity table: `compactlab fidelity` over the real corpora of ../shared (the
// Claude Code tree rebuilt by its stats.py, and foreign/ in its original layout), one row per
// agent, with each agent's versions and how many transcripts agree with their truth reader
// (tests/truth/) on API calls, peak context and compactions. Between the README's
// `<!-- fidelity:start -->` and `<!-- fidelity:end -->` markers.
//   node bin/run-ts.mjs scripts/gen-fidelity-table.ts          rewrites README.md
//   (tests/docs/fidelity-table.test.ts fails when the README's table is not today's)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { computeFidelityReport } from '../src/cli/fidelity';
import { readTruth } from '../tests/truth/index';
import { getTruthPeak } from '../tests/truth/types';

export const START = '<!-- fidelity:start -->';
export const END = '<!-- fidelity:end -->';

const n = (x: number) => x.toLocaleString('en-US');

/** The table, computed now over `corpus` (../shared/corpus) and its foreign/ folder. */
export async function computeFidelityTable(corpus: string): Promise<string> {
  const tree = mkdtempSync(join(tmpdir(), 'compactlab-fidelity-table-'));
  try {
    const restore = spawnSync('python3', [join(corpus, 'stats.py'), '--restore-tree', tree], {
      encoding: 'utf8',
    });
    if (restore.status !== 0) throw new Error(`stats.py --restore-tree failed: ${restore.stderr}`);
    const report = await computeFidelityReport([tree, join(corpus, 'foreign')]);
    const lines = [
      '| agent | versions | sessions | transcripts | API calls | calls, peak, compactions = truth reader | real compactions | same call | ±1 call | farther | missing | extra | manual |',
      '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ];
    for (const t of report.perAgent) {
      const rows = report.rows.filter((r) => r.agent === t.agent);
      const versions = [...new Set(rows.map((r) => r.version).filter((v) => v))].sort((a, b) =>
        a.localeCompare(b, 'en', { numeric: true }),
      );
      let withTruth = 0;
      let agree = 0;
      for (const row of rows) {
        const read = readTruth(row.file);
        if (!read) continue;
        withTruth++;
        const logged = read.truth.compactions.filter((c) => c.kind === 'compact' || c.kind === 'truncate');
        // The log's own figures over every branch (the replay's follow one branch path).
        if (
          row.loggedApiCalls === read.truth.calls.length &&
          row.peakContextTokens === getTruthPeak(read.truth) &&
          row.loggedCompactions === logged.length
        )
          agree++;
      }
      const span = versions.length > 2 ? `${versions[0]} – ${versions.at(-1)}` : versions.join(', ') || '–';
      lines.push(
        `| ${t.agent} | ${span} | ${t.sessions} | ${t.transcripts} | ${n(t.apiCalls)} | ${agree}/${withTruth} | ${t.real} | ${t.exact} | ${t.within1} | ${t.farther} | ${t.missing} | ${t.extra} | ${t.manual} |`,
      );
    }
    return lines.join('\n');
  } finally {
    rmSync(tree, { recursive: true, force: true });
  }
}

/** README text with `table` between the markers. */
export function withTable(readme: string, table: string): string {
  const from = readme.indexOf(START);
  const to = readme.indexOf(END);
  if (from < 0 || to < from) throw new Error(`README.md has no ${START} … ${END} markers`);
  return `${readme.slice(0, from + START.length)}\n${table}\n${readme.slice(to)}`;
}

if (process.argv[1]?.endsWith('gen-fidelity-table.ts')) {
  const table = await computeFidelityTable(join(import.meta.dirname, '..', '..', 'shared', 'corpus'));
  writeFileSync('README.md', withTable(readFileSync('README.md', 'utf8'), table));
  console.log(table);
}
