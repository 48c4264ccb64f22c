import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PRICE_TABLE } from '../../src/engine/cost/prices';
import { runCli } from '../helpers/run-cli';
import { corpusOrSkip, FOREIGN } from '../helpers/corpus';

// A team's costs run to thousands of dollars: `stats --by … --table` wrote '$6442.76' beside
// '174,900' calls (2,000 generated sessions) and the compare table '$23560.56' (a 100 MB
// generated session under api-clear-tool-uses), where every count groups its thousands. A real
// Codex rollout priced at 10,000 times the list prices (--prices) reaches them here.

const ROLLOUT = join(
  FOREIGN,
  'Redaration__praxis3/.codex/sessions/2025/10/19/rollout-2025-10-19T19-26-51-0199fdf0-5aa9-73a1-97af-7a759d33c95f.jsonl',
);
const present = corpusOrSkip('dollar figures over a thousand on a real Codex rollout');

/** Every list price times 10,000, as a --prices file. */
function pricesTimesTenThousand(): string {
  const times = 10_000;
  const prices = Object.fromEntries(
    Object.entries(PRICE_TABLE).map(([key, p]) => [
      key,
      {
        inputPerMTok: p.inputPerMTok * times,
        outputPerMTok: p.outputPerMTok * times,
        cacheWrite5mPerMTok: (p.cacheWrite5mPerMTok ?? p.inputPerMTok * 1.25) * times,
        cacheWrite1hPerMTok: (p.cacheWrite1hPerMTok ?? p.inputPerMTok * 2) * times,
        cacheReadPerMTok: (p.cacheReadPerMTok ?? p.inputPerMTok * 0.1) * times,
      },
    ]),
  );
  const file = join(mkdtempSync(join(tmpdir(), 'compactlab-usd-')), 'prices.json');
  writeFileSync(file, JSON.stringify(prices));
  return file;
}

const grouped = (usd: number) =>
  `$${usd.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

describe.skipIf(!present)('dollars over a thousand group their thousands', () => {
  it('stats --by day --table and the replay compare table', async () => {
    const prices = pricesTimesTenThousand();
    const by = ['stats', ROLLOUT, '--by', 'day', '--prices', prices, '--jobs', '0'];
    const total = JSON.parse((await runCli(by)).lines.at(-1)!) as { costUsd: number };
    expect(total.costUsd).toBeGreaterThan(1000);
    const table = (await runCli([...by, '--table'])).lines;
    expect(table.at(-1)).toMatch(/^Total\s/);
    expect(table.at(-1)).toContain(grouped(total.costUsd));

    const compare = await runCli(['replay', ROLLOUT, '--strategy', 'codex,claude-code', '--prices', prices]);
    expect(compare.code).toBe(0);
    const figures = compare.text.match(/\$[\d,]+\.\d+/g) ?? [];
    expect(figures.some((f) => f.includes(','))).toBe(true);
    for (const f of figures) expect(f).toMatch(/^\$\d{1,3}(,\d{3})*\.\d{2,3}$/);
  });
});
