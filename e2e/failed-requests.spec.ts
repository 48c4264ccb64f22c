import fs from 'node:fs';
import path from 'node:path';
import { dropFiles, expect, openEmpty, REPO_ROOT, test } from './fixtures';

// Issue 18 item 5 on the page: a real pi log whose last response is a failed request (HTTP 402,
// usage all 0; ../shared/corpus/foreign) shows 14 calls, not 15, a mark for the failed request on
// the chart, named in the legend, and a label on its transcript row.

const PI_LOG = path.join(
  REPO_ROOT,
  '../shared/corpus/foreign/timerloggedout-spec__termux-monorepo/.pi/agent/sessions/--data-data-com.termux-files-home--/2026-05-07T13-49-54-044Z_019e02b3-bbeb-74cc-ab75-076b653c68a7.jsonl',
);

test.skip(!fs.existsSync(PI_LOG), `real pi log not found at ${PI_LOG}`);
test.use({ viewport: { width: 1280, height: 720 } });

test('a failed request is marked on the timeline and labelled in the transcript, not drawn as a call', async ({
  page,
}) => {
  await openEmpty(page);
  await dropFiles(page, [{ name: path.basename(PI_LOG), content: fs.readFileSync(PI_LOG, 'utf8') }]);
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-calls', '14');
  const mark = page.getByTestId('failed-request-marker');
  await expect(mark).toHaveCount(1);
  await expect(mark).toHaveAttribute('data-reason', 'error');
  await expect(mark).toHaveAttribute('title', /after API call 14: no answer, no usage/);
  // The legend names the boxed × (a log without failed requests has no such item: timeline.spec),
  // and the line under the chart still fits the 1280 px page with it.
  await expect(page.getByTestId('legend-failed-request')).toHaveText('× failed request');
  const items = (await page.getByTestId('timeline-legend-items').boundingBox())!;
  expect(items.x + items.width).toBeLessThanOrEqual(1280);
  await mark.click();
  await expect(page.getByTestId('failed-request-label')).toBeVisible();
  await expect(page.getByTestId('failed-request-label')).toHaveText('failed · error');
});
