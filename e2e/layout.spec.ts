import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { createFixtureText } from '../tests/summarize/fixture';
import { FOLDER_FILES } from '../tests/fixtures/make-folder-fixtures';
import { getCutSelects } from './cut-selects';
import { dropFiles, expect, FIXTURES_DIR, openEmpty, SAMPLES_DIR, test } from './fixtures';

// Issue 24 item 3, what a person sees at 1280×720 in both palettes: Compare with all ten
// strategies, Knobs and Sweep open in a drawer beside the transcript (the page never scrolls, the
// header stays, the transcript keeps its height); threshold labels never on the data nor on one
// another; the "where it differs" popover inside the viewport; the side panel's tabs show the way
// to the active one; no select box cuts its text; the chart's plot taller than 90 px.

const INDEX = path.join(SAMPLES_DIR, 'index.json');
const SHOTS = path.join(import.meta.dirname, '..', 'test-results', 'layout');

interface Box {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}
const overlaps = (a: Box, b: Box) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;

async function openSample(page: Page, scheme: 'light' | 'dark'): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.emulateMedia({ colorScheme: scheme });
  await page.goto('/');
  await expect(page.getByTestId('session-header')).toBeVisible();
  await expect(page.getByTestId('replay-section')).toHaveAttribute('data-busy', 'false');
}

/**
 * The page does not scroll, the header is where it was, the transcript as tall as before, less
 * `wrapPx`: Sweep and Compare narrow it (e2e/drawer-layout.spec.ts), its filter chips taking two more lines.
 */
async function expectPageHolds(page: Page, transcriptHeight: number, wrapPx = 0): Promise<void> {
  const scroll = await page.evaluate(() => ({
    height: document.scrollingElement!.scrollHeight,
    top: document.scrollingElement!.scrollTop,
  }));
  expect(scroll.height, 'the page does not scroll').toBeLessThanOrEqual(720);
  expect(scroll.top).toBe(0);
  const header = (await page.getByTestId('session-header').boundingBox())!;
  expect(header.y).toBeGreaterThanOrEqual(0);
  expect(header.y + header.height).toBeLessThan(140);
  const list = (await page.getByTestId('transcript-list').boundingBox())!;
  expect(list.height).toBeGreaterThanOrEqual(transcriptHeight - 1 - wrapPx);
  expect(list.y + list.height).toBeLessThanOrEqual(720);
}

/** Clicks a strip's ‹ or › until the strip's end is reached and it goes (a scroll can detach it mid-click). */
async function clickUntilGone(button: Locator): Promise<void> {
  for (let k = 0; k < 8 && (await button.count()) > 0; k++) {
    await button.click({ timeout: 2_000 }).catch(() => undefined);
    await button.page().waitForTimeout(150);
  }
}

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`layout at 1280×720, ${scheme}`, () => {
    test.skip(!fs.existsSync(INDEX), 'public/samples/index.json is not there yet (run the sample generator)');

    test('Compare with all ten strategies opens in a drawer beside the transcript; labels never on the data', async ({
      page,
    }) => {
      await openSample(page, scheme);
      const before = (await page.getByTestId('transcript-list').boundingBox())!;
      await page.getByTestId('compare-open').click();
      const panel = page.getByTestId('compare-panel');
      await expect(panel).toBeVisible();
      for (const box of await panel.getByTestId('compare-pick').all())
        if (!(await box.isChecked())) await box.check();
      await expect(panel.locator('[data-testid="compare-pick"]:checked')).toHaveCount(10);
      await panel.getByTestId('compare-run').click();
      await expect(panel).toHaveAttribute('data-running', 'false');
      await expect(panel.getByTestId('compare-row')).toHaveCount(10);
      await expectPageHolds(page, before.height, 44);

      // The drawer widens the side panel's column, the transcript beside it at least 420 px wide.
      const drawer = (await page.getByTestId('replay-drawer').boundingBox())!;
      expect(drawer.x).toBeGreaterThanOrEqual(before.x + 420);
      expect(drawer.x + drawer.width).toBeLessThanOrEqual(1280.5);
      expect(drawer.y + drawer.height).toBeLessThanOrEqual(720);
      await expect(page.getByTestId('transcript-row').first()).toBeVisible();

      // Threshold labels: in the gutter right of the plot (or a legend), none on another.
      const chart = panel.getByTestId('compare-chart');
      const plotRight = Number(await chart.getAttribute('data-plot-right'));
      const chartBox = (await chart.boundingBox())!;
      const labels = await chart
        .getByTestId('compare-threshold-label')
        .locator('text')
        .evaluateAll((els) =>
          els.map((e) => {
            const r = e.getBoundingClientRect();
            return { x0: r.left, x1: r.right, y0: r.top, y1: r.bottom };
          }),
        );
      if ((await chart.getAttribute('data-labels')) === 'gutter') {
        expect(labels.length).toBeGreaterThan(10);
        for (const l of labels) {
          expect(l.x0, 'a label right of the plot').toBeGreaterThan(chartBox.x + plotRight);
          expect(l.x1).toBeLessThanOrEqual(chartBox.x + chartBox.width + 0.5);
          expect(l.y0).toBeGreaterThanOrEqual(chartBox.y - 0.5);
          expect(l.y1).toBeLessThanOrEqual(chartBox.y + chartBox.height + 0.5);
        }
        for (let a = 0; a < labels.length; a++)
          for (let b = a + 1; b < labels.length; b++)
            expect(overlaps(labels[a]!, labels[b]!), `labels ${a} and ${b} overlap`).toBe(false);
      } else {
        await expect(panel.getByTestId('compare-threshold-legend')).toBeVisible();
      }
      // The lines' numbers at their ends, inside the chart and apart.
      const ends = await chart.getByTestId('compare-end-label').evaluateAll((els) =>
        els.map((e) => {
          const r = e.getBoundingClientRect();
          return { x0: r.left, x1: r.right, y0: r.top + 1, y1: r.bottom - 1 };
        }),
      );
      expect(ends).toHaveLength(10);
      for (const e of ends) expect(e.y1).toBeLessThanOrEqual(chartBox.y + chartBox.height);
      for (let a = 0; a < ends.length; a++)
        for (let b = a + 1; b < ends.length; b++) expect(overlaps(ends[a]!, ends[b]!)).toBe(false);
      // The model's window is drawn; the table says how many real compactions each row reproduces.
      await expect(chart.getByTestId('compare-window')).toHaveAttribute('data-value', '200000');
      const opencode = panel.locator(
        '[data-testid="compare-row"][data-strategy="opencode"] td[data-col="real"]',
      );
      await expect(opencode).toHaveText(/^\d+\/1$/);
      const inTable = await opencode.textContent();
      await page.screenshot({ path: path.join(SHOTS, `compare-ten-${scheme}.png`) });

      // Escape closes it; the side panel is back.
      await page.keyboard.press('Escape');
      await expect(page.getByTestId('replay-drawer')).toHaveCount(0);
      await expect(page.getByTestId('side-tabs')).toBeVisible();
      // The strip under OpenCode says the same (issue 24: the table said "-" where the strip said 1/1).
      await page.getByTestId('replay-strategy').selectOption('opencode');
      await expect(page.getByTestId('replay-section')).toHaveAttribute('data-strategy', 'opencode');
      await expect(page.getByTestId('replay-section')).toHaveAttribute('data-busy', 'false');
      const strip = page.getByTestId('replay-compare');
      expect(
        `${await strip.getAttribute('data-reproduced')}/${await strip.getAttribute('data-expected')}`,
      ).toBe(inTable);
    });

    test('Knobs and Sweep open in the drawer; the page holds; no select cuts its text', async ({ page }) => {
      await openSample(page, scheme);
      const before = (await page.getByTestId('transcript-list').boundingBox())!;
      expect(await getCutSelects(page.locator('body'))).toEqual([]);
      await page.getByTestId('replay-knobs-toggle').click();
      await expect(page.getByTestId('replay-drawer').getByTestId('replay-knobs')).toBeVisible();
      await page.getByTestId('sweep-open').click();
      const sweep = page.getByTestId('replay-drawer').getByTestId('sweep-panel');
      await expect(sweep).toBeInViewport();
      await expectPageHolds(page, before.height, 44);
      expect(await getCutSelects(page.locator('body'))).toEqual([]);
      await page.screenshot({ path: path.join(SHOTS, `knobs-sweep-${scheme}.png`) });
      // Each strategy's own select boxes (their knobs differ) cut nothing either.
      const strategy = page.getByTestId('replay-strategy');
      for (const id of await strategy
        .locator('option')
        .evaluateAll((els) => els.map((e) => (e as HTMLOptionElement).value))) {
        await strategy.selectOption(id);
        await expect(page.getByTestId('replay-section')).toHaveAttribute('data-busy', 'false');
        expect(await getCutSelects(page.locator('body')), id).toEqual([]);
      }
    });

    test('the chart is taller than 90 px and its threshold labels never sit on the data', async ({
      page,
    }) => {
      await openSample(page, scheme);
      const timeline = page.getByTestId('timeline');
      await expect(timeline).toHaveAttribute('data-threshold-labels', /.+/);
      const height = (await timeline.boundingBox())!.height;
      // The plot: the canvas less the marker row (24 px) and the call axis (20 px).
      expect(height - 44).toBeGreaterThan(90);
      const labels = JSON.parse((await timeline.getAttribute('data-threshold-labels'))!) as (
        | (Box & { text: string; folded: false })
        | { text: string; folded: true }
      )[];
      expect(labels.length).toBeGreaterThan(0);
      // Every label drawn lies where the context line (its colour #5cb0f6) has no pixel.
      const drawn = labels.filter((l): l is Box & { text: string; folded: false } => !l.folded);
      expect(drawn.length).toBeGreaterThan(0);
      const hits = await timeline
        .locator('canvas')
        .first()
        .evaluate((canvas: HTMLCanvasElement, boxes) => {
          const ctx = canvas.getContext('2d')!;
          const scale = canvas.width / canvas.getBoundingClientRect().width;
          return boxes.map((b) => {
            const data = ctx.getImageData(
              b.x0 * scale,
              b.y0 * scale,
              (b.x1 - b.x0) * scale,
              (b.y1 - b.y0) * scale,
            ).data;
            let line = 0;
            for (let k = 0; k < data.length; k += 4)
              if (
                Math.abs(data[k]! - 0x5c) < 12 &&
                Math.abs(data[k + 1]! - 0xb0) < 12 &&
                Math.abs(data[k + 2]! - 0xf6) < 12
              )
                line++;
            return line;
          });
        }, drawn);
      expect(hits).toEqual(drawn.map(() => 0));
      for (let a = 0; a < drawn.length; a++)
        for (let b = a + 1; b < drawn.length; b++) expect(overlaps(drawn[a]!, drawn[b]!)).toBe(false);
      // A folded label is still named in the knobs bar's readout.
      for (const l of labels.filter((x) => x.folded))
        await expect(page.locator('.knobs-bar')).toContainText(l.text.split(' ')[0]!);
    });

    test('the "where it differs" popover stays inside the viewport; the side tabs show the way to the active one', async ({
      page,
    }) => {
      await openSample(page, scheme);
      await page.getByTestId('replay-compare').locator('summary').click();
      const list = page.getByTestId('replay-differs');
      await expect(list).toBeVisible();
      const box = (await list.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(1280);
      await page.keyboard.press('Escape');
      await expect(list).toBeHidden();

      // A narrow side panel: its tabs overflow; a › says more lie to the right and leads there.
      const splitter = (await page.getByTestId('side-splitter').boundingBox())!;
      await page.mouse.move(splitter.x + 2, splitter.y + 100);
      await page.mouse.down();
      await page.mouse.move(1280 - 300, splitter.y + 100, { steps: 5 });
      await page.mouse.up();
      const tabs = page.getByTestId('side-tabs');
      await expect(tabs).toHaveAttribute('data-overflow', 'true');
      await expect(page.getByTestId('side-tabs-after')).toBeVisible();
      await clickUntilGone(page.getByTestId('side-tabs-after'));
      await expect(page.getByTestId('side-tabs-after')).toHaveCount(0);
      await expect(page.getByTestId('tab-erosion')).toBeInViewport();
      await expect(page.getByTestId('side-tabs-before')).toBeVisible();
      // A compaction opened from the chart: its tab, last in the strip, is scrolled into view.
      await clickUntilGone(page.getByTestId('side-tabs-before'));
      await expect(page.getByTestId('side-tabs-before')).toHaveCount(0);
      await page.getByTestId('compaction-marker').first().click();
      const compactionTab = page.getByTestId('tab-compaction');
      await expect(compactionTab).toBeVisible();
      const strip = (await tabs.boundingBox())!;
      const tab = (await compactionTab.boundingBox())!;
      expect(tab.x).toBeGreaterThanOrEqual(strip.x - 0.5);
      expect(tab.x + tab.width).toBeLessThanOrEqual(strip.x + strip.width + 0.5);
      await page.screenshot({ path: path.join(SHOTS, `side-tabs-${scheme}.png`) });
    });

    test('another agent’s strategy keeps the model’s window; its note is whole and says what it means', async ({
      page,
    }) => {
      await openSample(page, scheme);
      const timeline = page.getByTestId('timeline');
      await expect(timeline).toHaveAttribute('data-window', '200000');
      const strategy = page.getByTestId('replay-strategy');
      const ids = await strategy
        .locator('option')
        .evaluateAll((els) => els.map((e) => (e as HTMLOptionElement).value));
      expect(ids.length).toBe(10);
      for (const id of ids) {
        await strategy.selectOption(id);
        await expect(page.getByTestId('replay-section')).toHaveAttribute('data-strategy', id);
        await expect(page.getByTestId('replay-section')).toHaveAttribute('data-busy', 'false');
        await expect(timeline, id).toHaveAttribute('data-window', '200000');
        const note = page.getByTestId('window-note');
        if ((await note.count()) === 0) continue;
        // Never "overridden" unless the user set the window; whole, inside the viewport.
        await expect(note, id).not.toContainText('overridden');
        const box = (await note.boundingBox())!;
        expect(box.x + box.width, id).toBeLessThanOrEqual(1280);
        expect(await note.evaluate((e) => e.scrollWidth <= e.clientWidth + 1), id).toBe(true);
        if (id === 'codex') {
          await expect(page.getByTestId('window-own-rule')).toContainText(
            'Codex CLI works within 190k of it',
          );
          await page.screenshot({ path: path.join(SHOTS, `codex-window-${scheme}.png`) });
        }
      }
      // The user's Window knob is what moves the frame (Claude Code's Window select).
      await strategy.selectOption('claude-code');
      await page.getByTestId('knob-window').selectOption('1000000');
      await expect(timeline).toHaveAttribute('data-window', '1000000');
      await expect(page.getByTestId('window-note')).toContainText('overridden: 1M');
    });

    test('a partial /compact acts at the selected message, or says before acting why it cannot', async ({
      page,
    }) => {
      await openSample(page, scheme);
      await page.getByTestId('transcript-row').nth(12).click();
      await expect(page.getByTestId('entry-number')).toContainText(/entry \d+/);
      const at = page.getByTestId('replay-partial-at');
      // Empty, the field means the call that sends the selected message, not the last call.
      const placeholder = Number(await at.getAttribute('placeholder'));
      expect(placeholder).toBeGreaterThan(0);
      expect(placeholder).toBeLessThan(20);
      const upTo = page.getByTestId('replay-partial-here');
      await expect(upTo).toBeEnabled();
      await expect(page.getByTestId('replay-partial-why')).toHaveCount(0);
      await upTo.click();
      const chip = page.locator(`[data-testid="replay-event-chip"][data-after-call="${placeholder - 1}"]`);
      await expect(chip).toHaveCount(1);
      await chip.click();
      await expect(page.getByTestId('replay-event-card')).toContainText('partial compaction (manual)');
      await page.keyboard.press('Escape');
      // At the last call the message is long summarized (the compaction after call 268): said
      // beside the buttons, which are off and look it.
      await at.fill('380');
      const why = page.getByTestId('replay-partial-why');
      await expect(why).toContainText('the message is summarized');
      await expect(why).toBeInViewport();
      await expect(upTo).toBeDisabled();
      await expect(page.getByTestId('replay-partial-from')).toBeDisabled();
      const looks = await upTo.evaluate((b) => {
        const cs = getComputedStyle(b);
        return { border: cs.borderStyle, cursor: cs.cursor };
      });
      expect(looks).toEqual({ border: 'dashed', cursor: 'not-allowed' });
      await page.screenshot({ path: path.join(SHOTS, `partial-why-${scheme}.png`) });
    });

    test('learn mode: one figure for the compaction, the log’s after beside the replay’s, the last Next off', async ({
      page,
    }) => {
      await openSample(page, scheme);
      await page.getByTestId('learn-button').click();
      await expect(page.getByTestId('learn-view')).toBeVisible();
      await expect(page.getByTestId('learn-count')).toHaveText(/^Step 1 of \d+$/);
      const n = Number((await page.getByTestId('learn-count').textContent())!.match(/of (\d+)/)![1]);
      await page
        .locator('.learn-dot')
        .nth(n - 1)
        .click();
      await expect(page.getByTestId('learn-count')).toHaveText(`Step ${n} of ${n}`);
      const next = page.getByTestId('learn-next');
      await expect(next).toBeDisabled();
      const looks = await next.evaluate((b) => {
        const cs = getComputedStyle(b);
        return { border: cs.borderStyle, cursor: cs.cursor, background: cs.backgroundColor };
      });
      expect(looks.border).toBe('dashed');
      expect(looks.cursor).toBe('not-allowed');
      expect(looks.background).toBe('rgba(0, 0, 0, 0)');
      // The step "The context after": the replay's figure and the log's, side by side.
      const dots = page.locator('.learn-dot');
      for (let i = 0; i < n; i++) {
        await dots.nth(i).click();
        if ((await page.getByTestId('learn-step').getAttribute('data-step-id')) === 'after') break;
      }
      const step = page.getByTestId('learn-step');
      await expect(step).toHaveAttribute('data-step-id', 'after');
      await expect(step).toContainText('In the log, next call');
      await expect(step.getByTestId('learn-bar-recorded')).toBeAttached();
      await expect(step.getByTestId('learn-bar')).toContainText('the log');
      // The lead's "drops to" figure is the picker's (when there is a picker) and the After figure.
      const lead = (await step.locator('.learn-lead').textContent())!;
      const [, before, after] = lead.match(/From ([\d,]+) tokens the context drops to ([\d,]+)/)!;
      await expect(step).toContainText(after!);
      const picker = page.getByTestId('learn-event');
      if ((await picker.count()) > 0)
        await expect(picker.locator('option:checked')).toContainText(`at ${before} tokens`);
      await page.screenshot({ path: path.join(SHOTS, `learn-after-${scheme}.png`) });
    });

    test('the zoom range is in the link: a reload opens the timeline zoomed where it was', async ({
      page,
    }) => {
      await openSample(page, scheme);
      const timeline = page.getByTestId('timeline');
      await timeline.focus();
      await page.keyboard.press('+');
      await page.keyboard.press('+');
      await page.keyboard.press('ArrowRight');
      const from = Number(await timeline.getAttribute('data-view-from'));
      const to = Number(await timeline.getAttribute('data-view-to'));
      expect(to - from).toBeLessThan(380);
      await expect(async () =>
        expect(new URL(page.url()).searchParams.get('zoom')).toMatch(/^[\d.]+-[\d.]+$/),
      ).toPass();
      await page.reload();
      await expect(page.getByTestId('session-header')).toBeVisible();
      await expect(timeline).toHaveAttribute('data-view-from', from.toFixed(2), { timeout: 20_000 });
      await expect(timeline).toHaveAttribute('data-view-to', to.toFixed(2));
      // Reset zoom takes it out of the address again.
      await timeline.focus();
      await page.keyboard.press('0');
      await expect(async () => expect(new URL(page.url()).searchParams.get('zoom')).toBeNull()).toPass();
    });

    test('the summaries diff shows its B column whole beside A', async ({ page }) => {
      test.setTimeout(120_000);
      await page.setViewportSize({ width: 1280, height: 720 });
      await page.emulateMedia({ colorScheme: scheme });
      await openEmpty(page);
      await dropFiles(page, [{ name: 'fixture-session.jsonl', content: createFixtureText() }]);
      await expect(page.getByTestId('session-header')).toBeVisible();
      await page.getByTestId('summaries-toggle').click();
      await expect(page.getByTestId('point-select')).toBeVisible();
      await page.getByTestId('run-summary').click();
      await expect(page.getByTestId('run-status')).toHaveText(/Done/);
      await page.getByTestId('prompt-editor').locator('.monaco-editor').click();
      await page.keyboard.press('Control+End');
      await page.keyboard.press('Enter');
      await page.keyboard.type('Keep it under 120 words.');
      await page.getByTestId('run-summary').click();
      await expect(page.getByTestId('run-row')).toHaveCount(2);
      const boxes = page.getByTestId('run-select');
      await boxes.nth(0).check();
      await boxes.nth(1).check();
      const table = page.getByTestId('run-diff').getByTestId('compare-table');
      await expect(table).toBeVisible();
      await table.scrollIntoViewIfNeeded();
      const side = (await page.locator('.compare-side').boundingBox())!;
      const b = page.locator('th[data-run="B"]');
      await expect(b).toHaveText('B');
      // Every cell of B lies inside the side panel, none cut at its right edge.
      const right = await table.evaluate((t) =>
        Math.max(
          ...[...t.querySelectorAll('tr')].map((r) => r.lastElementChild!.getBoundingClientRect().right),
        ),
      );
      expect(right).toBeLessThanOrEqual(side.x + side.width + 0.5);
      const bBox = (await b.boundingBox())!;
      expect(bBox.width).toBeGreaterThan(80);
      await page.screenshot({ path: path.join(SHOTS, `diff-${scheme}.png`) });
    });

    test('a compaction call’s own rows show where it ran, above its boundary, with their file line', async ({
      page,
    }) => {
      await page.setViewportSize({ width: 1280, height: 720 });
      await page.emulateMedia({ colorScheme: scheme });
      await openEmpty(page);
      const dir = path.join(FIXTURES_DIR, 'folder');
      await dropFiles(
        page,
        Object.values(FOLDER_FILES).map((name) => ({
          name: path.basename(name),
          content: fs.readFileSync(path.join(dir, name), 'utf8'),
        })),
      );
      await expect(page.getByTestId('session-header')).toBeVisible();
      await page.getByTestId('transcript-list').evaluate((el) => {
        el.scrollTop = 0;
      });
      // The first compaction's call: nested rows, before the first boundary row, not at the end.
      const rows = page.getByTestId('transcript-row');
      await expect(rows.first()).toBeVisible();
      const kinds = await rows.evaluateAll((els) =>
        els.map((e) => ({
          depth: Number(e.getAttribute('data-depth')),
          kind: e.getAttribute('data-kind'),
          text: e.textContent ?? '',
        })),
      );
      const boundary = kinds.findIndex((r) => r.kind === 'compaction');
      expect(boundary).toBeGreaterThan(0);
      const nestedBefore = kinds.slice(0, boundary).filter((r) => r.depth > 0);
      expect(nestedBefore.length).toBeGreaterThan(0);
      // The nested row just before the boundary is the compaction call's: its detail names its file.
      await rows.nth(boundary - 1).click();
      await expect(page.getByTestId('entry-number')).toContainText('agent-acompact-1a2b3c4d5e6f7a8b.jsonl:');
      await page.screenshot({ path: path.join(SHOTS, `compaction-call-rows-${scheme}.png`) });
    });
  });
}
