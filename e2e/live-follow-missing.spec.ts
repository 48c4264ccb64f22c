import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, generateFollowedSession, test } from './fixtures';

// A `?follow=` link naming a session's subagent log whose address answers 404 (the log not
// written yet, or moved): one failed read failed the whole step, and the session was not followed
// at all ("The file is gone", nothing loaded). Now the missing file is said and left out, and the
// main file and the other subagent logs are followed.

test('live mode: a subagent log answering 404 is said and skipped, the session still followed', async ({
  page,
}) => {
  const { mainFile, subFile, main } = generateFollowedSession();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'compactlab-live-missing-e2e-'));
  const mainPath = path.join(dir, mainFile.name);
  const subPath = path.join(dir, subFile.name);
  fs.mkdirSync(path.dirname(subPath), { recursive: true });
  fs.writeFileSync(mainPath, `${main.slice(0, 200).join('\n')}\n`);
  fs.writeFileSync(subPath, subFile.text);
  const missing = `${mainFile.name.replace(/\.jsonl$/, '')}/subagents/agent-a0missing.jsonl`;
  await page.route(
    (url) => url.pathname.startsWith('/live/'),
    (route) => {
      const file = path.join(dir, decodeURIComponent(new URL(route.request().url()).pathname.slice(6)));
      return fs.existsSync(file)
        ? route.fulfill({ body: fs.readFileSync(file), contentType: 'application/x-ndjson' })
        : route.fulfill({ status: 404, body: 'not found' });
    },
  );
  await page.goto(
    `/?sample=0&follow=/live/${mainFile.name}&follow=/live/${missing}&follow=/live/${subFile.name}`,
  );
  await expect(page.getByTestId('follow-toggle')).toHaveAttribute('aria-pressed', 'true');
  const skipped = page.getByTestId('follow-skipped');
  await expect(skipped).toContainText(
    'A file of the session cannot be read, left out (the rest is followed)',
  );
  await expect(skipped).toContainText(`${missing}: HTTP 404`);
  await expect(page.getByTestId('follow-error')).toHaveCount(0);
  const entries = async () =>
    Number(
      ((await page.getByTestId('stat-entries').textContent()) ?? '').match(/[\d,]+/)?.[0]?.replace(/,/g, ''),
    );
  // The main file's 200 lines and the subagent log that answers are read.
  await expect(page.getByTestId('follow-step')).toContainText('whole');
  const before = await entries();
  expect(before).toBeGreaterThan(200);
  await expect(page.getByTestId('follow-forecast')).toContainText(/context now .* threshold/);

  // The main file grows: read, while the missing log is still said.
  fs.appendFileSync(mainPath, `${main.slice(200, 210).join('\n')}\n`);
  await expect.poll(entries).toBe(before + 10);
  await expect(skipped).toContainText('HTTP 404');

  // The log read so far goes (404 too): said, its entries kept as last read, the main file followed.
  const subText = fs.readFileSync(subPath);
  fs.rmSync(subPath);
  await expect(skipped).toContainText('2 files of the session cannot be read');
  fs.appendFileSync(mainPath, `${main.slice(210, 215).join('\n')}\n`);
  await expect.poll(entries).toBe(before + 15);
  fs.writeFileSync(subPath, subText);

  // The missing log appears: no longer said.
  fs.mkdirSync(path.dirname(path.join(dir, missing)), { recursive: true });
  fs.writeFileSync(path.join(dir, missing), fs.readFileSync(subPath));
  await expect(skipped).toHaveCount(0);
  await expect(page.getByTestId('follow-error')).toHaveCount(0);
  fs.rmSync(dir, { recursive: true, force: true });
});
