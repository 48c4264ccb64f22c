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
const CLAUDE_2_1_68 = path.join(
  REAL_LOGS,
  'fabien-lessirard__dotfiles/.claude/projects/C--Users-acodu-dev-dashboard-mictlan/e739b244-acba-4c61-bb7c-897bf3a86747',
);
const GEMINI_CHAT = path.join(
  REAL_LOGS,
  'fabien-lessirard__dotfiles/.gemini/tmp/dashboard-mictlan/chats/session-2026-02-23T08-58-c9da8256.json',
);
const present = [CLINE_TASK, OPENCLAW, `${CLAUDE_2_1_68}.jsonl`, GEMINI_CHAT].every((p) => fs.existsSync(p));
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
    // The task, said as `text` before the first request, is the person's turn ('1 user turns'
    // before: the whole text, so that the plural fails).
    await expect(page.getByTestId('stat-user-turns')).toHaveText('1 user turn');
    await expect(page.getByTestId('transcript-row').first()).toBeVisible();
    // Its 46 reads, writes and commands: the UI log shows them, the history beside it their
    // results. Each row said 'no result' (44 of 46); now each one's result is found.
    await page.getByTestId('filter-tool-call').click();
    // The UI log's 46 calls and the history's 47 messages that hold a call.
    await expect(page.getByTestId('row-count')).toHaveText('93 of 398 rows');
    const rows = page.locator('[data-testid="transcript-row"][data-kind="tool-call"]');
    const seen = new Map<string, string>();
    for (let pass = 0; pass < 120 && seen.size < 93; pass++) {
      // Read in one step: the list is virtual, a row scrolled away is gone. Then half a screen on,
      // and from the top again at the end: a row drawn before its page of rows came from the
      // worker (no status yet: a loaded CI run read 6 so) is read on a later pass.
      const shown = await rows.evaluateAll((els) => {
        let list = els[0]?.parentElement ?? null;
        while (list && list.scrollHeight <= list.clientHeight) list = list.parentElement;
        if (list)
          list.scrollTop =
            list.scrollTop + list.clientHeight >= list.scrollHeight - 1
              ? 0
              : list.scrollTop + list.clientHeight / 2;
        return els.map((e) => [e.getAttribute('data-entry-index') ?? '', (e as HTMLElement).innerText]);
      });
      for (const [index, text] of shown) if (/\b(ok|no result|error)\b/.test(text!)) seen.set(index!, text!);
      await page.waitForTimeout(100);
    }
    expect(seen.size).toBe(93);
    const texts = [...seen.values()];
    // One call has none: the history's last message, its attempt_completion, which ends the task.
    const without = texts.filter((t) => t.includes('no result'));
    expect(without).toHaveLength(1);
    expect(without[0]).toContain('attempt_completion');
    // The other 92, the UI log's and the history's rows alike, show their result's 'ok'.
    expect(texts.filter((t) => /\bok\b/.test(t))).toHaveLength(92);
    await page.screenshot({ path: testInfo.outputPath('cline-task.png') });
  });

  test('an OpenClaw session: its gateway-injected replies are no API call', async ({ page }, testInfo) => {
    await openEmpty(page);
    await page
      .getByTestId('file-input')
      .setInputFiles(path.join(OPENCLAW, '251d51b3-d4a6-491e-896a-3a0a2918056b.jsonl'));
    await expect(page.getByTestId('session-header')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('stat-api-calls')).toContainText('67 API calls');
    // Its model, ollama/minimax-m2.7:cloud: the bars stood on Claude's 200k and the page said
    // nothing of it (only inspect's notes did). ollama is no provider of pi's registry, so the
    // model is one the user defined in models.json: pi's 128,000 when it states no window,
    // said with where it comes from.
    const note = page.getByTestId('window-note');
    await expect(note).toHaveAttribute('data-source', 'model-id');
    await expect(note).toHaveAttribute('data-window', '128000');
    await expect(note).toHaveAttribute(
      'title',
      /the provider ollama is not in pi's model registry.*model-registry\.ts:507/,
    );
    await page.screenshot({ path: testInfo.outputPath('openclaw-session.png') });
    await openEmpty(page);
    await page
      .getByTestId('file-input')
      .setInputFiles(path.join(OPENCLAW, '58d6dd28-b055-4727-b9a3-ad1a5109e756.jsonl'));
    await expect(page.getByTestId('session-header')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('session-header')).not.toContainText('gateway-injected');
    // Its one request failed: no model answered, and the header named none, though the log's
    // model_change sets llama3.1:8b; it is said as the model set.
    await expect(page.getByTestId('header-models')).toHaveText('llama3.1:8b (set; no call answered)');
    await page.screenshot({ path: testInfo.outputPath('openclaw-commands.png') });
  });

  test("a Gemini CLI project's prompt log is listed as one, not as a 122-day session named 'q'", async ({
    page,
  }, testInfo) => {
    await openEmpty(page);
    await page.getByTestId('folder-input').setInputFiles(path.join(GEMINI_CHAT, '../../../..'));
    const row = page.getByTestId('library-row').filter({ hasText: 'Prompt log' });
    // 998 prompts over 60 sessions: the file's records, counted by tests/parse/gemini-prompt-log.test.ts.
    await expect(row).toContainText('Prompt log: 998 prompts over 60 sessions, no model calls');
    await row.click();
    await expect(page.getByTestId('header-prompt-log')).toHaveText(
      'Prompt log: 998 prompts over 60 sessions, no model calls',
    );
    await page.screenshot({ path: testInfo.outputPath('gemini-prompt-log.png') });
  });

  test('a Claude Code 2.1.68 session with its compaction call: one copy folded, said so', async ({
    page,
  }) => {
    await openEmpty(page);
    await page
      .getByTestId('file-input')
      .setInputFiles([
        `${CLAUDE_2_1_68}.jsonl`,
        path.join(CLAUDE_2_1_68, 'subagents/agent-acompact-870cd0c7b9931190.jsonl'),
      ]);
    await expect(page.getByTestId('session-header')).toBeVisible({ timeout: 30_000 });
    // The compaction call's log copies one main-thread record: '(1 copies folded)' before.
    await expect(page.getByTestId('stat-folded')).toHaveText('(1 copy folded)');
    await expect(page.getByTestId('stat-user-turns')).toHaveText('40 user turns');
    await expect(page.getByTestId('stat-api-calls')).toHaveText('159 API calls');
  });

  test('a Gemini CLI compression: its notice counts the compacted history, not a summary', async ({
    page,
  }) => {
    await openEmpty(page);
    await page.getByTestId('file-input').setInputFiles(GEMINI_CHAT);
    await expect(page.getByTestId('session-header')).toBeVisible({ timeout: 30_000 });
    // The chat's own name (its `summary`, what Gemini CLI's /resume lists): the header had none.
    await expect(page.getByTestId('session-header')).toContainText(
      'Improve app appearance and update todo list.',
    );
    await page.getByTestId('filter-compaction').click();
    await page.getByTestId('transcript-row').first().click();
    await page.getByRole('button', { name: 'Open compaction card' }).click();
    const card = page.getByTestId('compaction-card');
    await expect(card.getByTestId('compaction-pre')).toHaveText('526,049 tok');
    // "compressed from: 526049 to 115614 tokens": the summary and the 30% kept, read 'summary' before.
    const compacted = card.getByTestId('compaction-summary-tokens');
    await expect(compacted).toHaveText('115,614 tok (summary and kept messages)');
    await expect(card.locator('dt', { hasText: /^summary$/ })).toHaveCount(0);
  });
});
