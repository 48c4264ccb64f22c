import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, openEmpty, REPO_ROOT, test } from './fixtures';

// The library's What if… over real sessions of five agents (the restored corpus folder /tmp/cctree
// and the foreign corpus, read in place and copied, links resolved, to a temporary folder: the
// browser's folder input does not follow links), against `compactlab stats --strategy` on the same
// folder at the same settings: each session's figures and the totals agree; a session of another
// agent says its agent, one whose models have no list price says "no price" (it read "$0.000"),
// one without an API call and a damaged one are said. Skipped when the corpus is absent.

const CCTREE = '/tmp/cctree';
const FOREIGN = path.join(REPO_ROOT, '../shared/corpus/foreign');
/** Folders of /tmp/cctree and the foreign corpus: Claude Code with subagents, Codex CLI, Cline, pi, Gemini CLI. */
const PARTS = [
  path.join(CCTREE, 'LAF-US__IDAHO-VAULT'),
  path.join(CCTREE, 'mike4567__MRA04242026'),
  path.join(FOREIGN, 'timerloggedout-spec__termux-monorepo'),
  path.join(FOREIGN, 'brexp__infra'),
];
const present = PARTS.every((p) => fs.existsSync(p));

function writeFolder(root: string): void {
  fs.rmSync(root, { recursive: true, force: true });
  for (const p of PARTS)
    fs.cpSync(p, path.join(root, path.basename(p)), { recursive: true, dereference: true });
  // A damaged session: a real one's first 20 records, two lines of garbage, 20 more.
  const real = fs
    .readFileSync(
      path.join(
        root,
        'LAF-US__IDAHO-VAULT/.claude/projects/c--Users-loganf-Documents-IDAHO-VAULT/05541cb5-fe43-41c9-87ef-2a6d89bba271.jsonl',
      ),
      'utf8',
    )
    .split('\n');
  const damaged = path.join(
    root,
    'damaged/.claude/projects/-home-x/22222222-2222-4222-8222-222222222222.jsonl',
  );
  fs.mkdirSync(path.dirname(damaged), { recursive: true });
  fs.writeFileSync(
    damaged,
    [
      ...real.slice(0, 20),
      '{"type":"assistant","message":{"usage":',
      '\u0000garbage',
      ...real.slice(20, 40),
      '',
    ].join('\n'),
  );
}

test.describe('library what-if on real sessions', () => {
  test.skip(!present, `corpus folders not found (${PARTS.join(', ')})`);

  test('the CLI’s figures, session by session; agents, unpriced and empty sessions said; 1280 and 1920, light and dark', async ({
    page,
  }, testInfo) => {
    test.setTimeout(300_000);
    const root = path.join(os.tmpdir(), `compactlab-whatif-corpus-${process.pid}`, 'corpus');
    writeFolder(root);
    const cli = spawnSync(
      process.execPath,
      [
        'bin/compactlab.cjs',
        'stats',
        root,
        '--strategy',
        'claude-code',
        '--sweep',
        'autocompactPctOverride=60:90:2',
        '--sessions',
        '--jobs',
        '0',
      ],
      { encoding: 'utf8', cwd: REPO_ROOT, maxBuffer: 64 * 1024 * 1024 },
    );
    expect(cli.status, cli.stderr).toBe(0);
    const cliRows = cli.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const cliTotals = cliRows.filter((r) => r.row === 'total');
    const cliSessions = cliRows.filter((r) => r.row === 'session');
    expect(cli.stderr).toMatch(/1 session has no API call.*logs\.json/);

    await page.setViewportSize({ width: 1280, height: 720 });
    await openEmpty(page);
    await page.getByTestId('folder-input').setInputFiles(root);
    await expect(page.getByTestId('library')).toBeVisible();
    await expect(page.getByTestId('library-scan')).toHaveCount(0, { timeout: 60_000 });
    await page.getByTestId('library-whatif').click();
    await expect(page.getByTestId('whatif-strategy')).toHaveValue('claude-code');
    await page.getByTestId('whatif-run').click();
    const status = page.getByTestId('whatif-status');
    await expect(status).toHaveAttribute('data-status', 'done', { timeout: 200_000 });
    // Gemini CLI's prompt log (no model call) and the cut session: no API call, said.
    await expect(status).toContainText(/replayed \(1 without an API call\)/);

    // The totals are the CLI's, setting by setting.
    const totals = await page.getByTestId('whatif-total').evaluateAll((rows) =>
      rows.map((r) => ({
        cost: Number(r.getAttribute('data-cost')),
        real: Number(r.getAttribute('data-real-cost')),
        logged: Number(r.getAttribute('data-logged-cost')),
        compactions: Number(r.getAttribute('data-compactions')),
      })),
    );
    expect(totals).toEqual(
      cliTotals.map((t) => ({
        cost: t.costUsd,
        real: t.realCostUsd,
        logged: t.loggedCostUsd,
        compactions: t.compactions,
      })),
    );
    const note = page.getByTestId('whatif-real-note');
    // Each agent named with its count; the calls without a list price counted, as the CLI counts them.
    const agents = new Map<string, number>();
    for (const r of cliSessions.filter((r) => r.value === 60))
      agents.set(String(r.agent), (agents.get(String(r.agent)) ?? 0) + 1);
    expect([...agents.keys()]).toEqual(
      expect.arrayContaining(['Claude Code', 'Codex CLI', 'Cline', 'pi', 'Gemini CLI']),
    );
    for (const [agent, n] of agents) await expect(note).toContainText(`${agent} ${n}`);
    await expect(note).toContainText(
      `${Number(cliTotals[0]!.unpricedCalls).toLocaleString('en-US')} calls have no list price`,
    );

    // Session by session: the CLI's cost at each setting, its agent, "no price" where none is priced.
    await page.locator('.whatif-sessions summary').click();
    // The rows are drawn once the list is open: read them after they are there.
    await expect(page.getByTestId('whatif-session').first()).toBeVisible();
    const sessions = await page.getByTestId('whatif-session').evaluateAll((rows) =>
      rows.map((r) => ({
        file: r.querySelector('td')?.getAttribute('title') ?? '',
        cells: [...r.querySelectorAll('td')].map((td) => td.textContent ?? ''),
      })),
    );
    const byFile = (file: string) =>
      cliSessions.filter((r) => String(r.file).endsWith(file.replace(/^corpus\//, '/')));
    let unpriced = 0;
    for (const s of sessions) {
      const rows = byFile(s.file);
      if (rows.length === 0) continue; // no API call: said in the status
      expect(s.cells[1], s.file).toBe(rows[0]!.agent);
      if (rows[0]!.pricedSessions === 0) {
        unpriced++;
        expect(s.cells[2], s.file).toBe('no price');
      } else
        expect(s.cells[2], s.file).toBe(
          `$${Number(rows[0]!.realCostUsd).toFixed(Number(rows[0]!.realCostUsd) < 1 ? 3 : 2)}`,
        );
    }
    expect(unpriced, 'a Cline history and pi sessions have no list price').toBeGreaterThan(0);
    expect(sessions.filter((s) => byFile(s.file).length > 0)).toHaveLength(cliSessions.length / 2);

    for (const [w, h] of [
      [1280, 720],
      [1920, 1080],
    ] as const) {
      await page.setViewportSize({ width: w, height: h });
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.getByTestId('whatif').scrollIntoViewIfNeeded();
        // Nothing of the panel runs past the page's right edge.
        const overflow = await page.evaluate(() => {
          const panel = document.querySelector('[data-testid="whatif"]')!;
          return [...panel.querySelectorAll('*')].filter(
            (el) => el.getBoundingClientRect().right > window.innerWidth + 1,
          ).length;
        });
        expect(overflow, `${w}×${h} ${scheme}`).toBe(0);
        await page.screenshot({ path: testInfo.outputPath(`whatif-corpus-${w}-${scheme}.png`) });
      }
    }
    fs.rmSync(path.dirname(root), { recursive: true, force: true });
  });
});
