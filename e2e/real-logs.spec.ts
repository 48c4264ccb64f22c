import fs from 'node:fs';
import path from 'node:path';
import { expect, openEmpty, test } from './fixtures';

// Real logs added on 2026-11-29 (tests/real-logs/manifest.json, restored into .real-logs/ by
// scripts/restore-real-logs.mjs; skipped, saying so, when absent), opened in the built page: a
// Cline task folder of the Anthropic provider (its history read every call at 10 tokens with a
// warning per call) and an OpenClaw session in pi's format (its command replies read as calls).

const REAL_LOGS = path.join(import.meta.dirname, '..', '.real-logs');
const CLINE_TASK = path.join(
  REAL_LOGS,
  'gmfstu__Online-Card-Architecture/exported_conversation_1769053680585',
);
const OPENCLAW = path.join(REAL_LOGS, 'adrianstanca1__vps-config/.openclaw/agents/main/sessions');
const present = fs.existsSync(CLINE_TASK) && fs.existsSync(OPENCLAW);
if (!present) console.warn(`real-logs e2e skipped: ${REAL_LOGS} is not restored`);

test.describe('real logs in the page', () => {
  test.skip(!present, 'restore .real-logs first (node scripts/restore-real-logs.mjs)');
  test.use({ viewport: { width: 1280, height: 720 } });

  test('a Cline task folder of the Anthropic provider: 47 calls as its UI log counts them, no issue', async ({
    page,
  }, testInfo) => {
    await openEmpty(page);
    await page.getByTestId('folder-input').setInputFiles(CLINE_TASK);
    await expect(page.getByTestId('library-row')).toHaveCount(1);
    await page.getByTestId('library-row').click();
    await expect(page.getByTestId('session-header')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('stat-api-calls')).toContainText('47 API calls');
    // 66,115: the UI log's largest request; the history beside it no longer warns of each call.
    await expect(page.getByTestId('session-header')).toContainText('66.1k peak context');
    await expect(page.getByTestId('stat-issues')).toContainText('0 parse issues');
    // The task, said as `text` before the first request, is the person's turn.
    await expect(page.getByTestId('stat-user-turns')).toContainText('1 user turn');
    await expect(page.getByTestId('transcript-row').first()).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath('cline-task.png') });
  });

  test('an OpenClaw session: its gateway-injected replies are no API call', async ({ page }, testInfo) => {
    await openEmpty(page);
    await page
      .getByTestId('file-input')
      .setInputFiles(path.join(OPENCLAW, '251d51b3-d4a6-491e-896a-3a0a2918056b.jsonl'));
    await expect(page.getByTestId('session-header')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('stat-api-calls')).toContainText('67 API calls');
    await page.screenshot({ path: testInfo.outputPath('openclaw-session.png') });
    await openEmpty(page);
    await page
      .getByTestId('file-input')
      .setInputFiles(path.join(OPENCLAW, '58d6dd28-b055-4727-b9a3-ad1a5109e756.jsonl'));
    await expect(page.getByTestId('session-header')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('session-header')).not.toContainText('gateway-injected');
    await page.screenshot({ path: testInfo.outputPath('openclaw-commands.png') });
  });
});
