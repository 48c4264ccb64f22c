import fs from 'node:fs';
import path from 'node:path';
import { dropFiles, expect, openEmpty, REPO_ROOT, test } from './fixtures';

// The walk of session 15: a real Codex rollout replayed under Claude Code's rules read "0/1 real
// auto-compaction reproduced", a miss of the replay to a new user; the engine's note that another
// agent's log is not expected to match lay at the end of the knobs drawer. The strip now says it
// beside the count, and only when the strategy is not the log's own. Skipped without the corpus.

const CODEX_LOG = path.join(
  REPO_ROOT,
  '../shared/corpus/LAF-US__IDAHO-VAULT/codex__archived_sessions__rollout-2026-03-29T22-19-12-019d3cf7-965c-7fb0-8eca-afeca7fe7b00.jsonl',
);

test.skip(!fs.existsSync(CODEX_LOG), `corpus file not found (${CODEX_LOG})`);

test('another agent’s rules on a real Codex rollout: the strip says a match is not expected', async ({
  page,
}, testInfo) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openEmpty(page);
  await dropFiles(page, [
    {
      name: 'rollout-2026-03-29T22-19-12-019d3cf7-965c-7fb0-8eca-afeca7fe7b00.jsonl',
      content: fs.readFileSync(CODEX_LOG, 'utf8'),
    },
  ]);
  const section = page.getByTestId('replay-section');
  const compare = page.getByTestId('replay-compare');
  await expect(section).toHaveAttribute('data-strategy', 'codex', { timeout: 30_000 });
  await expect(section).toHaveAttribute('data-busy', 'false');
  // Its own agent's rules: the real compaction reproduced, nothing more said.
  await expect(compare).toHaveAttribute('data-reproduced', '1');
  await expect(page.getByTestId('replay-other-agent')).toHaveCount(0);
  await page.getByTestId('replay-strategy').selectOption('claude-code');
  await expect(section).toHaveAttribute('data-strategy', 'claude-code');
  await expect(section).toHaveAttribute('data-busy', 'false');
  await expect(compare).toHaveAttribute('data-reproduced', '0');
  await expect(page.getByTestId('replay-other-agent')).toHaveText(
    '· Codex CLI’s log under other rules: not expected to match',
  );
  await page.screenshot({ path: testInfo.outputPath('replay-other-agent-1280.png') });
  await page.getByTestId('replay-strategy').selectOption('codex');
  await expect(section).toHaveAttribute('data-busy', 'false');
  await expect(page.getByTestId('replay-other-agent')).toHaveCount(0);
});
