import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openPathSources } from '../src/cli/session-files';
import { findSessions } from '../src/cli/stats/find-sessions';
import { scanSession } from '../src/engine/library/scan-session';
import { groupUsage, type UsageSession } from '../src/engine/stats/usage';
import { expect, openEmpty, REPO_ROOT, test } from './fixtures';

// The library's usage by day and by project at 1280×720, light and dark, on the restored corpus
// (other people's real Claude Code, Codex and Cline folders in their original layout): the bars
// are the figures `compactlab stats --by` computes from the same files (days in the browser's
// zone, a quarter hour off the hour here, and in UTC); a click, or Tab and Enter, on a day or a
// project lists its sessions; the table alternative; both schemes looked at.

const CORPUS = path.join(REPO_ROOT, '../shared/corpus');
const present = fs.existsSync(CORPUS) && spawnSync('python3', ['--version']).status === 0;
const ZONE = 'Asia/Kathmandu';

async function expectedSessions(root: string): Promise<UsageSession[]> {
  const out: UsageSession[] = [];
  for (const g of await findSessions([root])) {
    const row = await scanSession(await openPathSources(g.paths));
    out.push({ key: g.file, cwd: row.cwd ?? '', buckets: row.usage });
  }
  return out;
}

test.describe('library usage by day and project', () => {
  test.skip(!present, 'needs ../shared/corpus and python3 (stats.py --restore-tree)');
  test.use({ viewport: { width: 1280, height: 720 }, timezoneId: ZONE });

  test('charts and tables of the listed sessions; a day or project picked lists its sessions', async ({
    page,
  }, testInfo) => {
    test.setTimeout(180_000);
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'compactlab-usage-e2e-'));
    const tree = path.join(base, 'tree');
    const restore = spawnSync('python3', [path.join(CORPUS, 'stats.py'), '--restore-tree', tree], {
      encoding: 'utf8',
    });
    expect(restore.status, restore.stderr).toBe(0);
    // The input reads files, not links: a copy with the links' targets.
    const root = path.join(base, 'corpus');
    fs.cpSync(tree, root, { recursive: true, dereference: true });
    const sessions = await expectedSessions(root);
    const byDay = groupUsage(sessions, 'day', ZONE);
    const byProject = groupUsage(sessions, 'project', ZONE);
    const byDayUtc = groupUsage(sessions, 'day', 'UTC');
    expect(byDay.length).toBeGreaterThan(20);

    await openEmpty(page);
    await page.getByTestId('folder-input').setInputFiles(root);
    // Opened while the scan runs: the charts follow the rows as they come, to the last.
    await page.getByTestId('library-usage').click();
    const panel = page.getByTestId('usage-panel');
    await expect(panel).toBeVisible();
    await expect(page.getByTestId('library-scan')).toHaveCount(0, { timeout: 120_000 });
    await expect(page.getByTestId('library-count')).toContainText(`${sessions.length} sessions`);
    await expect(page.getByTestId('usage-summary')).not.toContainText('scanning');
    const dayBars = page.getByTestId('usage-bar-day');
    await expect(dayBars).toHaveCount(byDay.length);
    const drawn = await dayBars.evaluateAll((bars) =>
      bars.map((b) => ({ key: b.getAttribute('data-key'), cost: Number(b.getAttribute('data-cost')) })),
    );
    expect(drawn.map((d) => d.key)).toEqual(byDay.map((g) => g.key));
    for (const [i, d] of drawn.entries()) expect(d.cost).toBeCloseTo(byDay[i]!.costUsd, 6);
    const total = byProject.reduce((s, g) => s + g.costUsd, 0);
    await expect(page.getByTestId('usage-summary')).toContainText(
      `$${total.toFixed(2)} over ${sessions.filter((s) => s.buckets.length > 0).length} sessions`,
    );
    const projectBars = page.getByTestId('usage-bar-project');
    await expect(projectBars).toHaveCount(Math.min(10, byProject.length));
    expect(await projectBars.evaluateAll((bars) => bars.map((b) => b.getAttribute('data-key')))).toEqual(
      byProject.slice(0, 10).map((g) => g.key),
    );

    // Layout at 1280×720: both charts whole, side by side, and the list below still showing rows.
    const day = (await page.getByTestId('usage-chart-day').boundingBox())!;
    const project = (await page.getByTestId('usage-chart-project').boundingBox())!;
    expect(day.x + day.width).toBeLessThanOrEqual(project.x);
    expect(project.x + project.width).toBeLessThanOrEqual(1280);
    expect(Math.abs(day.y - project.y)).toBeLessThan(2);
    const list = (await page.getByTestId('library-rows').boundingBox())!;
    expect(list.height).toBeGreaterThan(60);
    expect(list.y + list.height).toBeLessThanOrEqual(720);
    await page.screenshot({ path: testInfo.outputPath('usage-light.png') });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: testInfo.outputPath('usage-dark.png') });
    await page.emulateMedia({ colorScheme: 'light' });

    // A click on the most expensive day lists its sessions; a second click lists all again.
    const top = [...byDay].sort((a, b) => b.costUsd - a.costUsd)[0]!;
    await page.locator(`[data-testid="usage-bar-day"][data-key="${top.key}"]`).click();
    await expect(page.getByTestId('usage-filter')).toContainText(top.key);
    await expect(page.getByTestId('library-count')).toContainText(`${top.sessions} of ${sessions.length}`);
    await expect(page.getByTestId('library-row')).toHaveCount(top.sessions);
    await page.screenshot({ path: testInfo.outputPath('usage-picked-light.png') });
    await page.locator(`[data-testid="usage-bar-day"][data-key="${top.key}"]`).click();
    await expect(page.getByTestId('usage-filter')).toHaveCount(0);
    await expect(page.getByTestId('library-count')).toContainText(`${sessions.length} sessions`);

    // Keyboard: the first bar is the next Tab stop after the panel's controls; Enter picks it.
    await page.getByTestId('usage-view').focus();
    await page.keyboard.press('Tab');
    await expect(dayBars.first()).toBeFocused();
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: testInfo.outputPath('usage-focus-dark.png') });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('library-count')).toContainText(
      `${byDay[0]!.sessions} of ${sessions.length}`,
    );
    await page.getByRole('button', { name: 'Show all sessions' }).click();

    // Tokens: the bars stacked by kind, with a legend.
    await page.getByRole('radio', { name: 'Tokens' }).check();
    await expect(page.getByTestId('usage-chart-day')).toContainText('Tokens by day');
    await expect(panel).toContainText('cache read');
    await page.screenshot({ path: testInfo.outputPath('usage-tokens-light.png') });

    // The table alternative: every day and every project; a project's button picks it.
    await page.getByTestId('usage-view').click();
    await expect(page.getByTestId('usage-table-day').locator('tbody tr')).toHaveCount(byDay.length);
    await expect(page.getByTestId('usage-table-project').locator('tbody tr')).toHaveCount(byProject.length);
    // Side by side, neither cut: no column needs a scroll at 1280 px.
    for (const wrap of await page.locator('.usage-table-wrap').all())
      expect(await wrap.evaluate((e) => e.scrollWidth - e.clientWidth)).toBeLessThanOrEqual(0);
    const first = byProject[0]!;
    await page.getByTestId('usage-table-project').locator(`tr[data-key="${first.key}"] button`).click();
    await expect(page.getByTestId('library-count')).toContainText(`${first.sessions} of ${sessions.length}`);
    await page.screenshot({ path: testInfo.outputPath('usage-table-light.png') });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: testInfo.outputPath('usage-table-dark.png') });
    await page.emulateMedia({ colorScheme: 'light' });

    // Days in UTC: other days, the same total.
    await page.getByTestId('usage-view').click();
    await page.getByTestId('usage-zone').selectOption('UTC');
    await expect(dayBars).toHaveCount(byDayUtc.length);
    expect(await dayBars.evaluateAll((bars) => bars.map((b) => b.getAttribute('data-key')))).toEqual(
      byDayUtc.map((g) => g.key),
    );
    // Closing the panel drops its filter.
    await page.getByTestId('library-usage').click();
    await expect(panel).toHaveCount(0);
    await expect(page.getByTestId('library-count')).toContainText(`${sessions.length} sessions`);
    fs.rmSync(base, { recursive: true, force: true });
  });
});
