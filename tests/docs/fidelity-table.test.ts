import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  computeFidelityTable,
  END,
  getCorpusFingerprint,
  getShownCorpus,
  START,
} from '../../scripts/gen-fidelity-table';
import { CORPUS, corpusOrSkip } from '../helpers/corpus';

// The README's fidelity table is today's: the same computation as `compactlab fidelity` over the
// real corpora, written by scripts/gen-fidelity-table.ts. A change of any figure (better or worse)
// fails here until the table is written again; tests/corpus/fidelity.test.ts holds the floors.
// The table names the corpus it was written on: where ../shared holds another (logs were added),
// the comparison is skipped, saying so, and the floors still hold.

const present =
  corpusOrSkip('README fidelity table test') && spawnSync('python3', ['--version']).status === 0;

describe.skipIf(!present)('README: the fidelity table', () => {
  it('is what compactlab fidelity gives today', async (context) => {
    const readme = readFileSync(join(__dirname, '../../README.md'), 'utf8');
    const shown = readme.slice(readme.indexOf(START) + START.length, readme.indexOf(END)).trim();
    const corpus = getCorpusFingerprint(CORPUS);
    if (getShownCorpus(shown) !== corpus) {
      console.warn(
        `README fidelity table test: the table was written on corpus "${getShownCorpus(shown)}", ../shared holds "${corpus}": not compared (run scripts/gen-fidelity-table.ts)`,
      );
      context.skip();
    }
    const table = await computeFidelityTable(CORPUS);
    // Line by line, so a failure names the row that changed.
    const today = table.split('\n');
    shown.split('\n').forEach((line, i) => {
      expect(line, `line ${i + 1}; run: node bin/run-ts.mjs scripts/gen-fidelity-table.ts`).toBe(today[i]);
    });
    expect(shown.split('\n').length).toBe(today.length);
    // Every real transcript agrees with its truth reader on calls, peak and compactions (issue 18).
    const rows = today.filter((line) => line.startsWith('| ')).slice(2);
    expect(rows.length).toBeGreaterThanOrEqual(5);
    for (const row of rows) {
      const [agree, withTruth] = (row.split('|')[6] ?? '').trim().split('/');
      expect(agree, row).toBe(withTruth);
    }
  }, 60_000);
});
