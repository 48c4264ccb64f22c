import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, REPO_ROOT, test } from './fixtures';

// Live mode over a real Claude Code 2.1.97 session whose file is emptied while followed (the agent
// restarted, the log truncated): the bar said "Waiting for the first calls…" above the session
// read before (460 entries, 141 API calls, its chart), as if nothing had been read. Now it says the
// file shrank, from how many bytes to how many, and that the session shown is the last read; the
// first whole line written after reads the file again from its start.

const LOG = path.join(
  REPO_ROOT,
  '../shared/corpus/4thehalibit__omarchy-backup/claude__projects__-home-vwestberg-Claude__1fb5e404-604d-4a2b-baf1-3beb42a67371.jsonl',
);

test('live mode: a followed file emptied or cut below a line says so, the session shown the last read', async ({
  page,
}) => {
  test.skip(!fs.existsSync(LOG), `${LOG} is absent (a fresh clone without ../shared)`);
  const lines = fs.readFileSync(LOG, 'utf8').split('\n');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'compactlab-live-shrank-e2e-'));
  const file = path.join(dir, 's.jsonl');
  const write = (from: number, to: number) => fs.writeFileSync(file, `${lines.slice(from, to).join('\n')}\n`);
  write(0, 400);
  await page.route(
    (url) => url.pathname === '/live/s.jsonl',
    (route) => route.fulfill({ body: fs.readFileSync(file), contentType: 'application/x-ndjson' }),
  );
  await page.goto('/?sample=0&follow=/live/s.jsonl');
  const entries = page.getByTestId('stat-entries');
  await expect(entries).toHaveText('400 entries');
  const bar = page.getByTestId('follow-bar');
  const shrank = page.getByTestId('follow-shrank');
  await expect(page.getByTestId('follow-forecast')).toContainText('context now 86.3k');
  const fullBytes = fs.statSync(file).size;

  // Emptied: the session read before stays, said to be the last read, not "waiting".
  fs.writeFileSync(file, '');
  await expect(shrank).toHaveText(
    `The file shrank from ${fullBytes.toLocaleString('en-US')} to 0 bytes: the session below is its last read, read again from its start once a whole line is written`,
  );
  await expect(bar).not.toContainText('Waiting for the first calls');
  await expect(entries).toHaveText('400 entries');

  // Its first whole lines: read again from the start, the notice gone.
  write(0, 100);
  await expect(entries).toHaveText('100 entries');
  await expect(shrank).toHaveCount(0);
  await expect(page.getByTestId('follow-step')).toContainText('(the file shrank)');

  // Cut inside its first line (a rewrite begun): the same, to the bytes there are.
  const hundredBytes = fs.statSync(file).size;
  fs.writeFileSync(file, lines[0]!.slice(0, 40));
  await expect(shrank).toContainText(`from ${hundredBytes.toLocaleString('en-US')} to 40 bytes`);
  await expect(entries).toHaveText('100 entries');
  write(0, 120);
  await expect(entries).toHaveText('120 entries');
  await expect(shrank).toHaveCount(0);
  fs.rmSync(dir, { recursive: true, force: true });
});
