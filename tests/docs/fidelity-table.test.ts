import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { computeFidelityTable, END, START } from '../../scripts/gen-fidelity-table';
import { CORPUS, corpusOrSkip } from '../helpers/corpus';

// The README's fidelity table is today's: the same computation as `compactlab fidelity` over the
// real corpora, written by scripts/gen-fidelity-table.ts. A change of any figure (better or worse)
// fails here until the table is written again; tests/corpus/fidelity.test.ts holds the floors.

const present =
  corpusOrSkip('README fidelity table test') && spawnSync('python3', ['--version']).status === 0;

describe.skipIf(!present)('README: the fidelity table', () => {
  it('is what compactlab fidelity gives today', async () => {
    const readme = readFileSync(join(__dirname, '../../README.md'), 'utf8');
    const shown = readme.slice(readme.indexOf(START) + START.length, readme.indexOf(END)).trim();
    const table = await computeFidelityTable(CORPUS);
    expect(shown, 'run: node bin/run-ts.mjs scripts/gen-fidelity-table.ts').toBe(table);
    // Every real transcript agrees with its truth reader on calls, peak and compactions (issue 18).
    const rows = table.split('\n').slice(2);
    expect(rows.length).toBeGreaterThanOrEqual(5);
    for (const row of rows) {
      const [agree, withTruth] = (row.split('|')[6] ?? '').trim().split('/');
      expect(agree, row).toBe(withTruth);
    }
  }, 60_000);
});
