import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateSession } from '../sample/generate-session';
import { expect, FIXTURES_DIR, openEmpty, test } from './fixtures';

// How a folder's files become the library's sessions (engine/library/group-files.ts), on layouts
// the generated 2.1 folders do not have: Claude Code 2.0.x subagent logs beside their session
// (FORMAT.md §7; they name it only inside, so the page reads their first bytes), two such logs
// whose session is not in the folder, a `subagents/` folder without its transcript, and a Cline
// task folder (its UI log, API history and metadata: one session, not three).

test('a folder of 2.0.x sibling subagents, orphans and a Cline task lists one row a session', async ({
  page,
}) => {
  const root = path.join(os.tmpdir(), `compactlab-groups-e2e-${process.pid}`, 'home');
  fs.rmSync(root, { recursive: true, force: true });
  const write = (rel: string, text: string) => {
    const p = path.join(root, rel);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, text);
  };
  // 2.0.x: the subagent's log beside the session file.
  const parent = generateSession({ seed: 12, apiCalls: 120, features: { specials: true } });
  for (const f of parent.files) write(`projects/-home-ada-old/${path.basename(f.name)}`, f.text);
  const siblings = parent.files.filter((f) => f.name.includes('/subagents/')).length;
  expect(siblings).toBeGreaterThan(0);
  // Two subagent logs of a session that is not in the folder, beside another project's session.
  const absent = generateSession({ seed: 13, apiCalls: 160, features: { specials: true } });
  const absentSub = absent.files.find((f) => f.name.includes('/subagents/'))!;
  write('projects/-home-ada-new/agent-aaaa1111.jsonl', absentSub.text);
  write('projects/-home-ada-new/agent-bbbb2222.jsonl', absentSub.text);
  // A subagents folder without its transcript.
  const orphan = `projects/-home-ada-new/${absent.sessionId.replace(/^.{4}/, 'dead')}/subagents/agent-x1.jsonl`;
  write(orphan, absentSub.text);
  // A Cline task folder.
  for (const name of fs.readdirSync(path.join(FIXTURES_DIR, 'cline-task')))
    write(
      `tasks/1763000000000/${name}`,
      fs.readFileSync(path.join(FIXTURES_DIR, 'cline-task', name), 'utf8'),
    );

  await openEmpty(page);
  await page.getByTestId('folder-input').setInputFiles(root);
  const rows = page.getByTestId('library-row');
  await expect(page.getByTestId('library-scan')).toHaveCount(0);
  await expect(page.getByTestId('library-rows')).not.toContainText('scanning…');
  const keys = (await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-key')))).sort();
  expect(keys).toEqual(
    [
      `home/projects/-home-ada-old/${parent.sessionId}.jsonl`,
      'home/projects/-home-ada-new/agent-aaaa1111.jsonl',
      `home/${orphan}`,
      'home/tasks/1763000000000/ui_messages.json',
    ].sort(),
  );
  // The 2.0.x session counts its sibling logs as its subagents.
  const old = page.locator(`[data-key="home/projects/-home-ada-old/${parent.sessionId}.jsonl"]`);
  await expect(old.locator('[data-col="subagents"]')).toHaveText(String(siblings));
  await expect(
    page.locator('[data-key="home/tasks/1763000000000/ui_messages.json"] [data-col="agent"]'),
  ).toContainText('Cline');
  // The subagents folder without its transcript says so; a session with its transcript does not.
  await expect(page.locator(`[data-key="home/${orphan}"] [data-col="prompt"]`)).toContainText(
    'subagent logs only',
  );
  await expect(old.locator('[data-col="prompt"]')).not.toContainText('subagent logs only');
});
