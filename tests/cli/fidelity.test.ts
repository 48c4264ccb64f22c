import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FidelityReport } from '../../src/cli/fidelity';
import { main } from '../../src/cli/main';
import { compareVersionStrings } from '../../src/engine/fidelity/fidelity';

// `compactlab fidelity` over the committed fixtures (written by us); the real corpora are
// tests/corpus/fidelity.test.ts's.

const FIXTURES = join(__dirname, '../fixtures');
const run = async (...args: string[]) => {
  const lines: string[] = [];
  const code = await main(['fidelity', ...args], (t) => lines.push(t));
  return { code, text: lines.join('\n') };
};

describe('compactlab fidelity', () => {
  const inputs = ['tiny.jsonl', 'secrets.jsonl', 'cline-task', 'agents'].map((f) => join(FIXTURES, f));

  it('--json: a row per transcript, totals per agent and per version', async () => {
    const { code, text } = await run(...inputs, '--json');
    expect(code).toBe(0);
    const report = JSON.parse(text) as FidelityReport;
    expect(report.errors).toEqual([]);
    const byAgent = Object.fromEntries(report.perAgent.map((t) => [t.agent, t]));
    // Both Claude Code fixtures' auto compactions come at the call the replay fires.
    expect(byAgent['Claude Code']).toMatchObject({ sessions: 2, real: 2, exact: 2, missing: 0, extra: 0 });
    // The Cline task: its truncation reproduced, its condense (a summarizeTask) not, and one extra.
    expect(byAgent.Cline).toMatchObject({
      sessions: 1,
      apiCalls: 8,
      real: 2,
      exact: 1,
      missing: 1,
      extra: 1,
    });
    // pi's compaction is above what its trigger explains: read as asked for (manual); the
    // version 1 fixture (make-pi-v1-fixture.ts) adds one.
    expect(byAgent.pi).toMatchObject({ real: 0, manual: 3 });
    expect(report.perVersion.find((t) => t.agent === 'Claude Code')?.version).toBe('2.1.68');
    for (const row of report.rows) expect(row.exact + row.within1 + row.farther + row.missing).toBe(row.real);
  });

  it('prints a table, an agent a block', async () => {
    const { text } = await run(...inputs);
    const [header, ...rows] = text.split('\n');
    expect(header).toMatch(/^agent\s+version\s+sessions\s+transcripts\s+API calls\s+real\s+exact\s+±1/);
    expect(rows.find((r) => r.startsWith('Claude Code'))).toMatch(
      /^Claude Code\s+2\.1\.68\s+2\s+2\s+9\s+2\s+2\s+0/,
    );
  });

  it('an empty folder: exit 1, said on stderr (it printed the header alone)', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'compactlab-fidelity-empty-'));
    const err: string[] = [];
    const write = process.stderr.write;
    process.stderr.write = ((t: string) => err.push(String(t)) > 0) as typeof process.stderr.write;
    try {
      expect((await run(empty)).code).toBe(1);
    } finally {
      process.stderr.write = write;
    }
    expect(err.join('')).toBe(`compactlab fidelity: no session file found in ${empty}\n`);
  });

  it('without a folder prints its usage', async () => {
    const { code, text } = await run();
    expect(code).toBe(2);
    expect(text).toContain('compactlab fidelity <folder or file>');
  });

  it('orders versions by number, pre-releases before their release', () => {
    const versions = ['2.1.101', '0.117.0', '2.1.92', '0.117.0-alpha.10', '0.117.0-alpha.2', '2.0.9'];
    expect(versions.sort(compareVersionStrings)).toEqual([
      '0.117.0-alpha.2',
      '0.117.0-alpha.10',
      '0.117.0',
      '2.0.9',
      '2.1.92',
      '2.1.101',
    ]);
  });
});
