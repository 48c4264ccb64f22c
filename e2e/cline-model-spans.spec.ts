import fs from 'node:fs';
import path from 'node:path';
import { expect, openEmpty, REPO_ROOT, test } from './fixtures';

// A real Cline task (../shared/corpus/foreign, haram-333/fineye) whose requests went to
// grok-code-fast-1 (256,000), then Claude Sonnet 4.5 (200,000): the chart drew one set of lines,
// the session's (maxAllowedSize 216,000), over every call though the replay checked Claude's calls
// against 160,000. Each window's lines now run over the calls sent with its model.

const TASK = path.join(REPO_ROOT, '../shared/corpus/foreign/haram-333__fineye/ui_messages.json');

test.skip(!fs.existsSync(TASK), `real Cline task not found at ${TASK}`);

for (const viewport of [
  { width: 1280, height: 720 },
  { width: 1920, height: 1080 },
]) {
  test(`a Cline task that switches models: each window's lines over its calls (${viewport.width}×${viewport.height})`, async ({
    page,
  }, testInfo) => {
    await page.setViewportSize(viewport);
    await openEmpty(page);
    await page.getByTestId('file-input').setInputFiles(TASK);
    await expect(page.getByTestId('timeline')).toHaveAttribute('data-calls', '24');
    // Calls 1–19 on grok (its 216,000), 20–24 on Claude (160,000, and its 200,000 window).
    const readout = page.getByTestId('threshold-readout');
    await expect(readout.getByTestId('threshold-maxallowed-0')).toHaveText(
      'maxAllowedSize 216,000 (calls 1–19)',
    );
    await expect(readout.getByTestId('threshold-maxallowed-1')).toHaveText(
      'maxAllowedSize 160,000 (calls 20–24)',
    );
    await expect(readout.getByTestId('threshold-window-1')).toHaveText(
      'Context window 200,000 (calls 20–24)',
    );
    // No single line for the whole task is left.
    await expect(readout.getByTestId('threshold-maxallowed')).toHaveCount(0);
    await page.screenshot({ path: testInfo.outputPath(`cline-spans-${viewport.width}.png`) });
  });
}
