// Writes the README's fidelity table: `compactlab fidelity` over the real corpora of ../shared (the
// Claude Code tree rebuilt by its stats.py, and foreign/ in its original layout), one row per
// agent, with each agent's versions and how many transcripts agree with their truth reader
// (tests/truth/) on API calls, peak context and compactions. Between the README's
// `<!-- fidelity:start -->` and `<!-- fidelity:end -->` markers.
//   node bin/run-ts.mjs scripts/gen-fidelity-table.ts          rewrites README.md
//   (tests/docs/fidelity-table.test.ts fails when the README's table is not today's)
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { computeFidelityReport } from '../src/cli/fidelity';
import { readTruth } from '../tests/truth/index';
import { getTruthPeak } from '../tests/truth/types';

export const START = '<!-- fidelity:start -->';
export const END = '<!-- fidelity:end -->';

const n = (x: number) => x.toLocaleString('en-US');

/**
 * The corpus the table is computed on, named by its files: a hash of every file's path and size.
 * The corpus grows (real logs found by sessions join it), and a table is true of the corpus it
 * was written on: the README names it, so its test compares only like with like.
 */
export function getCorpusFingerprint(corpus: string): string {
  const entries: string[] = [];
  let bytes = 0;
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else {
        const size = statSync(path).size;
        bytes += size;
        entries.push(`${relative(corpus, path)}\t${size}`);
      }
    }
  };
  walk(corpus);
  const hash = createHash('sha256').update(entries.sort().join('\n')).digest('hex').slice(0, 12);
  return `${entries.length} files, ${(bytes / 1e6).toFixed(1)} MB, ${hash}`;
}

const CORPUS_LINE = /^Corpus: (.*)\.$/m;

/** The corpus fingerprint a README's table names (undefined: none). */
export function getShownCorpus(shown: string): string | undefined {
  return CORPUS_LINE.exec(shown)?.[1];
}

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
      '| agent | versions | sessions | transcripts | API calls | calls, peak, compactions = truth reader | real compactions | same call | ±1 call | farther | missing | extra | manual | off branch |',
      '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ];
    // By agent name: the report lists agents in the order their sessions were found, which
    // follows the absolute paths of the two roots (a temporary folder and ../shared), so differs
    // between machines.
    const perAgent = [...report.perAgent].sort((a, b) => a.agent.localeCompare(b.agent, 'en'));
    for (const t of perAgent) {
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
        `| ${t.agent} | ${span} | ${t.sessions} | ${t.transcripts} | ${n(t.apiCalls)} | ${agree}/${withTruth} | ${t.real} | ${t.exact} | ${t.within1} | ${t.farther} | ${t.missing} | ${t.extra} | ${t.manual} | ${t.offBranch} |`,
      );
    }
    lines.push('', `Corpus: ${getCorpusFingerprint(corpus)}.`);
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
