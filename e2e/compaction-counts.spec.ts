import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import {
  countCompactions,
  type DropFile,
  dropFiles,
  expect,
  openEmpty,
  readCorpusSession,
  REPO_ROOT,
  test,
} from './fixtures';
import { expectWindowLabelClear } from './window-label';

// A session's compactions as the page counts them, on real sessions: the header counts the main
// thread's, as the library's row and `compactlab stats` do, and says the subagents' apart; the
// timeline's markers are the main thread's only. The header said "15 compactions" where the list
// said 6, and the subagents' 9 were markers at main-thread call numbers ("after call 5:
// Compaction (auto) · 182,356 → –"). A Cline log's truncations are named as such in the replay
// strip, as the header's legend names them (it said "1/4 real auto-compactions reproduced").

const CORPUS = path.join(REPO_ROOT, '../shared/corpus');
const VAULT = path.join(CORPUS, 'LAF-US__IDAHO-VAULT');
const PREFIX = 'claude__projects__c--Users-loganf-Documents-IDAHO-VAULT__';
const CLINE = path.join(CORPUS, 'CoreGems__Cline-Xray/task_sample__ui_messages.json');

/** A session's files under the names Claude Code gives them (the corpus flattens its folders). */
const sessionFiles = (session: string): DropFile[] => readCorpusSession(VAULT, PREFIX, session);

/** Markers drawn on the chart: plain ones and the members of clusters. */
async function markerCount(page: Page): Promise<number> {
  const plain = await page.getByTestId('compaction-marker').count();
  const clusters = await page
    .getByTestId('compaction-cluster')
    .evaluateAll((els) => els.reduce((n, el) => n + Number(el.getAttribute('data-count') ?? 0), 0));
  return plain + clusters;
}

test.describe('compaction counts on real sessions', () => {
  test.skip(!fs.existsSync(VAULT), `corpus not found at ${VAULT}`);
  test.use({ viewport: { width: 1280, height: 720 } });

  test('05541cb5 at 1280 px: the tool list is cut, and names every tool with its plain count', async ({
    page,
  }) => {
    const main = sessionFiles('05541cb5-fe43-41c9-87ef-2a6d89bba271').find(
      (f) => f.name.endsWith('.jsonl') && !f.name.startsWith('agent-'),
    )!;
    // A plain count: each tool_use block of the raw records, once by its id, by name.
    const byId = new Map<string, string>();
    for (const line of main.content.split('\n')) {
      if (!line.includes('"tool_use"')) continue;
      const content = (JSON.parse(line) as { message?: { content?: unknown } }).message?.content;
      for (const b of Array.isArray(content) ? content : [])
        if (b?.type === 'tool_use') byId.set(b.id, b.name);
    }
    const counts = new Map<string, number>();
    for (const name of byId.values()) counts.set(name, (counts.get(name) ?? 0) + 1);
    expect(counts.size).toBeGreaterThan(6);
    await openEmpty(page);
    await dropFiles(page, [main]);
    const list = page.getByTestId('tool-list');
    expect(await list.evaluate((el) => el.scrollWidth > el.clientWidth + 1), 'cut at 1280 px').toBe(true);
    const title = (await list.getAttribute('title'))!.split('\n');
    expect(new Map(title.map((l) => [l.split(': ')[0]!, Number(l.split(': ')[1])]))).toEqual(counts);
  });

  test("05541cb5: the main thread's 6 in the header and on the chart, the subagents' 9 said apart", async ({
    page,
  }) => {
    const files = sessionFiles('05541cb5-fe43-41c9-87ef-2a6d89bba271');
    const logs = files.filter((f) => f.name.endsWith('.jsonl'));
    const main = logs.find((f) => !f.name.startsWith('agent-'))!;
    const subs = logs.filter((f) => f !== main);
    expect(subs).toHaveLength(4);
    expect(countCompactions(main.content).compact).toBe(6);
    expect(subs.reduce((n, f) => n + countCompactions(f.content).compact, 0)).toBe(9);

    await openEmpty(page);
    await dropFiles(page, files);
    await expect(page.getByTestId('stat-compactions')).toHaveText('6 compactions');
    await expect(page.getByTestId('stat-compaction-kinds')).toHaveText('(6 auto · 0 manual · 0 μ)');
    await expect(page.getByTestId('stat-subagent-compactions')).toHaveText('· 9 in subagents');
    await expect(page.getByTestId('replay-compare')).toHaveAttribute('data-expected', '6');
    await expect.poll(() => markerCount(page)).toBe(6);
    await expect(page.getByTestId('timeline-legend-items')).not.toContainText('truncation');
    // None is a subagent's (theirs had no after-value, "→ – tokens", and a pre-value over 175k
    // while the main thread's first compaction was 175,199 → 167,185).
    const titles = [
      ...(await page
        .getByTestId('compaction-marker')
        .evaluateAll((els) => els.map((e) => e.getAttribute('title') ?? ''))),
      ...(await page
        .getByTestId('compaction-cluster')
        .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''))),
    ].join('\n');
    expect(titles).not.toContain('→ – tokens');
    expect(titles).not.toContain('182,356');
    // Its first compactions follow call 1: their marker lay over the window's label ("A4dow
    // 200k"). The label now starts past every marker's button.
    expect(await expectWindowLabelClear(page), 'the label is drawn (the row has room for it)').toBe(true);
    await page.screenshot({ path: test.info().outputPath('session-05541cb5.png') });
  });

  test("05541cb5: the box of its first 4 compactions lists each one's tokens before and after, whole", async ({
    page,
  }) => {
    // The list cut its members at 300 px: 'after call 1: Compaction (auto) · 175,199 → 16…', the
    // figure after lost. The figures before come from a plain read of the log's boundaries.
    const main = sessionFiles('05541cb5-fe43-41c9-87ef-2a6d89bba271').find(
      (f) => f.name === '05541cb5-fe43-41c9-87ef-2a6d89bba271.jsonl',
    )!;
    const pre = main.content
      .split('\n')
      .filter((l) => l.includes('"compact_boundary"'))
      .map((l) => (JSON.parse(l) as { compactMetadata: { preTokens: number } }).compactMetadata.preTokens);
    expect(pre.slice(0, 4)).toEqual([175_199, 168_305, 169_333, 173_287]);
    await openEmpty(page);
    await dropFiles(page, [main]);
    const box = page.getByTestId('compaction-cluster').first();
    await expect(box).toHaveAttribute('data-count', '4');
    await box.click();
    const items = page.getByTestId('marker-cluster-list').locator('.cluster-item');
    await expect(items).toHaveCount(4);
    for (const [i, tokens] of pre.slice(0, 4).entries()) {
      const item = items.nth(i);
      await expect(item).toContainText(
        `after call ${i + 1}: Compaction (auto) · ${tokens.toLocaleString('en-US')} → `,
      );
      await expect(item).toHaveText(/→ [\d,]+ tokens$/);
      // Shown whole: nothing overflows the list's box.
      expect(await item.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
      const list = await page.getByTestId('marker-cluster-list').boundingBox();
      const itemBox = await item.boundingBox();
      expect(itemBox!.x + itemBox!.width).toBeLessThanOrEqual(list!.x + list!.width);
    }
    await expect(items.nth(3)).toContainText('173,287 → 42,072 tokens');
    await page.screenshot({ path: test.info().outputPath('cluster-05541cb5.png') });
  });

  test('05541cb5 cut mid-record: a compaction 2 calls before the end stands clear of the threshold labels', async ({
    page,
  }) => {
    // The log cut at half its bytes, mid-record (a copy being written): its 5th compaction follows
    // call 95 of 97, and its marker stood over the 'blocking 197k' label at the right edge.
    const main = sessionFiles('05541cb5-fe43-41c9-87ef-2a6d89bba271').find(
      (f) => f.name === '05541cb5-fe43-41c9-87ef-2a6d89bba271.jsonl',
    )!;
    const bytes = Buffer.from(main.content, 'utf8');
    const cut = bytes.subarray(0, Math.floor(bytes.length / 2)).toString('utf8');
    expect(cut.endsWith('\n')).toBe(false);
    expect(countCompactions(cut.slice(0, cut.lastIndexOf('\n'))).compact).toBe(5);
    await openEmpty(page);
    await dropFiles(page, [{ name: main.name, content: cut }]);
    await expect(page.getByTestId('stat-compactions')).toHaveText('5 compactions');
    await expect(page.getByTestId('stat-issues')).toContainText('2');
    const timeline = page.getByTestId('timeline');
    await expect(timeline).toHaveAttribute('data-threshold-labels', /blocking/);
    const canvas = (await timeline.locator('canvas').first().boundingBox())!;
    const labels = (
      JSON.parse((await timeline.getAttribute('data-threshold-labels'))!) as {
        text: string;
        folded: boolean;
        x0: number;
        x1: number;
        y0: number;
        y1: number;
      }[]
    ).filter((l) => !l.folded);
    expect(labels.length).toBeGreaterThan(0);
    const buttons = await page
      .locator('[data-testid="compaction-marker"], [data-testid="compaction-cluster"]')
      .evaluateAll((els) =>
        els.map((e) => {
          const r = e.getBoundingClientRect();
          return {
            title: e.getAttribute('aria-label') ?? '',
            x0: r.left,
            x1: r.right,
            y0: r.top,
            y1: r.bottom,
          };
        }),
      );
    expect(buttons.some((b) => b.title.includes('170,115'))).toBe(true); // the one after call 95
    for (const l of labels)
      for (const b of buttons) {
        const overlaps =
          canvas.x + l.x0 < b.x1 &&
          canvas.x + l.x1 > b.x0 &&
          canvas.y + l.y0 < b.y1 &&
          canvas.y + l.y1 > b.y0;
        expect(overlaps, `'${l.text}' under the marker '${b.title}'`).toBe(false);
      }
    await page.screenshot({ path: test.info().outputPath('cut-05541cb5.png') });
  });

  test('cc06da85 (only a subagents folder): the log read as the main thread is 1, the other 22 apart', async ({
    page,
  }) => {
    const files = sessionFiles('cc06da85-8b62-41f5-9393-d8ff1a51b0df');
    await openEmpty(page);
    await dropFiles(page, files);
    await expect(page.getByTestId('subagent-transcript')).toBeVisible();
    await expect(page.getByTestId('stat-compactions')).toHaveText('1 compaction');
    await expect(page.getByTestId('stat-subagent-compactions')).toHaveText('· 22 in subagents');
    await expect.poll(() => markerCount(page)).toBe(1);
    await page.screenshot({ path: test.info().outputPath('session-cc06da85.png') });
  });

  test("05541cb5's Summaries export: the main thread's 6, then each subagent's under its heading", async ({
    page,
  }) => {
    // The export held the main thread's summaries only; the subagents' 9 are in their logs too.
    const files = sessionFiles('05541cb5-fe43-41c9-87ef-2a6d89bba271');
    const subs = files.filter((f) => f.name.startsWith('agent-') && f.name.endsWith('.jsonl'));
    await openEmpty(page);
    await dropFiles(page, files);
    await expect(page.getByTestId('stat-compactions')).toHaveText('6 compactions');
    const item = page.getByTestId('export-summaries-md');
    await expect(async () => {
      if (!(await item.isVisible())) await page.getByTestId('export-button').click();
      await expect(item).toBeVisible({ timeout: 2_000 });
    }).toPass();
    await expect(item).toBeEnabled();
    const [download] = await Promise.all([page.waitForEvent('download'), item.click()]);
    const md = fs.readFileSync((await download.path())!, 'utf8');
    expect(md.match(/^## Recorded: /gm)).toHaveLength(6);
    expect(md).toContain('· 9 more in subagents (below)');
    for (const f of subs) {
      const id = /^agent-([a-z0-9]+)\.jsonl$/.exec(f.name)![1]!;
      const n = countCompactions(f.content).compact;
      const section = md.slice(md.indexOf(`## Subagent ${id}\n`)).split(/\n## /)[0]!;
      expect(section.match(/^### Recorded: compaction \d+ of \d+/gm), id).toHaveLength(n);
      expect(section).toContain(`### Recorded: compaction ${n} of ${n} (auto)`);
    }
  });

  test("a Cline task: the strip names its truncations as the header's legend does", async ({ page }) => {
    test.skip(!fs.existsSync(CLINE), `corpus file not found at ${CLINE}`);
    await openEmpty(page);
    await dropFiles(page, [{ name: 'ui_messages.json', content: fs.readFileSync(CLINE, 'utf8') }]);
    await expect(page.getByTestId('stat-compaction-kinds')).toHaveText('(0 auto · 0 manual · 0 μ · 4 T)');
    const strip = page.getByTestId('replay-compare');
    await expect(strip).toHaveAttribute('data-expected', '4');
    await expect(strip).toContainText(/\d\/4 real truncations reproduced/);
    await expect(strip).not.toContainText('auto-compaction');
    // The chart's legend names the T its markers draw.
    await expect(page.getByTestId('timeline-legend-items')).toContainText('T truncation');
    await page.screenshot({ path: test.info().outputPath('cline-truncations.png') });
  });
});
