import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, exportFile, openEmpty, REPO_ROOT, test } from './fixtures';

// A session opened from a folder names its timeline by its path under the folder: the report's and
// the SVG export's title ran past the picture's right edge (1,204 and 1,470 px of text in a 960 px picture,
// the file name lost). A real session, laid out as ~/.claude/projects is under an opened folder,
// exported from the page; the title measured as Chromium draws it.

const SESSION = '05541cb5-fe43-41c9-87ef-2a6d89bba271';
const CORPUS_SESSION = path.join(
  REPO_ROOT,
  `../shared/corpus/LAF-US__IDAHO-VAULT/claude__projects__c--Users-loganf-Documents-IDAHO-VAULT__${SESSION}.jsonl`,
);

test.skip(!fs.existsSync(CORPUS_SESSION), `corpus file not found at ${CORPUS_SESSION}`);

test("the timeline's title fits its picture and ends with the file's name (report and SVG)", async ({
  page,
}) => {
  const root = path.join(os.tmpdir(), `compactlab-export-title-${process.pid}`, 'explorer-tree');
  const dir = path.join(root, 'LAF-US__IDAHO-VAULT/.claude/projects/c--Users-loganf-Documents-IDAHO-VAULT');
  fs.rmSync(root, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  fs.copyFileSync(CORPUS_SESSION, path.join(dir, `${SESSION}.jsonl`));

  await page.setViewportSize({ width: 1280, height: 720 });
  await openEmpty(page);
  await page.getByTestId('folder-input').setInputFiles(root);
  await page.locator(`[data-testid="library-row"][data-key$="${SESSION}.jsonl"]`).click();
  await expect(page.getByTestId('session-header')).toBeVisible();

  for (const item of ['report-html', 'timeline-svg']) {
    const text = (await exportFile(page, item)).bytes.toString('utf8');
    const svg = item === 'timeline-svg' ? text : /<svg[\s\S]*?<\/svg>/.exec(text)![0];
    // The whole title stays in the picture's <title>, the folder path in it.
    expect(svg).toMatch(new RegExp(`<title>Context timeline of [^<]*/c--Users-[^<]*${SESSION}\\.jsonl`));

    const view = await page.context().newPage();
    await view.setContent(svg);
    const drawn = await view.evaluate(() => {
      const svgEl = document.querySelector('svg')!;
      const title = svgEl.querySelector<SVGTextElement>('text.title')!;
      return {
        text: title.textContent ?? '',
        rightPx: title.x.baseVal[0]!.value + title.getComputedTextLength(),
        widthPx: svgEl.width.baseVal.value,
      };
    });
    await view.close();
    expect(drawn.rightPx, `${item}: ${drawn.text}`).toBeLessThanOrEqual(drawn.widthPx);
    expect(drawn.text).toMatch(/^Context timeline of /);
    expect(drawn.text).toContain(`${SESSION}.jsonl`);
  }
  fs.rmSync(path.dirname(root), { recursive: true, force: true });
});
