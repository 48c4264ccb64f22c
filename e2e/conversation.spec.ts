import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { dropFiles, expect, FIXTURES_DIR, test } from './fixtures';

// Issue 24 item 9: the conversation view beside the rows (switchable, kept across reloads), its
// Markdown drawn safely from a hostile transcript (<script>, <img onerror>, javascript: links,
// a remote image, ANSI escapes), each tool call folded with its result under it; and the whole
// transcript exported as one HTML file that runs nothing and loads nothing. 1280×720, light and dark.

const ESC = '\u001b';
const base = { sessionId: 's1', cwd: '/w', version: '2.1.68', isSidechain: false, userType: 'external' };
const usage = {
  input_tokens: 3,
  cache_creation_input_tokens: 10,
  cache_read_input_tokens: 100,
  output_tokens: 5,
};
const HOSTILE = [
  {
    ...base,
    type: 'user',
    uuid: 'u1',
    parentUuid: null,
    timestamp: '2026-03-09T10:00:00.000Z',
    message: {
      role: 'user',
      content: `# Plan\nPlease **fix** it: <script>window.__pwned=1</script> <img src=x onerror="window.__pwned=1">\n- [bad](javascript:window.__pwned=1)\n- [docs](https://example.com/docs)\n- ![pixel](https://tracker.example/p.png)\n${ESC}[31mred text${ESC}[0m and \`code\``,
    },
  },
  {
    ...base,
    type: 'assistant',
    uuid: 'a1',
    parentUuid: 'u1',
    timestamp: '2026-03-09T10:00:01.000Z',
    message: {
      id: 'msg_1',
      model: 'claude-opus-4-6',
      role: 'assistant',
      content: [
        {
          type: 'text',
          text: 'Running the tests:\n```\n<iframe srcdoc="<script>window.__pwned=1</script>"></iframe>\n```',
        },
        {
          type: 'tool_use',
          id: 'tu1',
          name: 'Bash',
          input: { command: 'npm test <script>window.__pwned=1</script>' },
        },
      ],
      usage,
    },
  },
  {
    ...base,
    type: 'user',
    uuid: 'r1',
    parentUuid: 'a1',
    timestamp: '2026-03-09T10:00:02.000Z',
    message: {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'tu1', content: `${ESC}[32mPASS${ESC}[0m 12 tests <b>bold?</b>` },
      ],
    },
  },
]
  .map((l) => JSON.stringify(l))
  .join('\n');

async function openHostile(page: Page, scheme: 'light' | 'dark'): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.emulateMedia({ colorScheme: scheme });
  await page.goto('/?sample=0');
  await dropFiles(page, [{ name: 'hostile.jsonl', content: HOSTILE }]);
  await expect(page.getByTestId('session-header')).toBeVisible();
}

async function expectNothingRan(page: Page): Promise<void> {
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
}

for (const scheme of ['light', 'dark'] as const) {
  test(`the conversation view draws hostile Markdown as text, tool results under their calls (${scheme})`, async ({
    page,
  }, testInfo) => {
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await openHostile(page, scheme);
    await page.getByTestId('view-conversation').click();
    const conv = page.getByTestId('conversation');
    await expect(conv.getByTestId('conv-turn')).toHaveCount(2);
    await expect(conv.locator('[data-role="user"]')).toContainText('<script>window.__pwned=1</script>');
    await expect(conv.locator('[data-role="user"] strong')).toHaveText('fix');
    await expect(conv.locator('[data-role="user"] code')).toHaveText('code');
    // Nothing from the transcript became an element that runs, loads or navigates.
    await expect(conv.locator('script, img, iframe, svg, object, embed')).toHaveCount(0);
    await expect(conv.locator('a')).toHaveCount(1);
    await expect(conv.locator('a')).toHaveAttribute('href', 'https://example.com/docs');
    await expect(conv.locator('a')).toHaveAttribute('rel', 'noopener noreferrer nofollow');
    await expect(conv).toContainText('bad (javascript:window.__pwned=1)');
    await expect(conv).toContainText('[image: pixel]');
    // ANSI escapes removed.
    expect(await conv.textContent()).not.toContain(ESC);
    await expect(conv).toContainText('red text');
    // The tool call is folded; opened, its result sits under it, inside it.
    const tool = conv.getByTestId('conv-tool');
    await expect(tool).toHaveCount(1);
    const result = tool.getByTestId('conv-result');
    await expect(result).toBeHidden();
    await tool.locator('summary').click();
    await expect(result).toBeVisible();
    await expect(result).toHaveText('PASS 12 tests <b>bold?</b>');
    const summaryBox = (await tool.locator('summary').boundingBox())!;
    const resultBox = (await result.boundingBox())!;
    const toolBox = (await tool.boundingBox())!;
    expect(resultBox.y).toBeGreaterThan(summaryBox.y + summaryBox.height - 1);
    expect(resultBox.y + resultBox.height).toBeLessThanOrEqual(toolBox.y + toolBox.height + 1);
    // The view fills the transcript pane's width beside the side panel, under the toggle.
    const convBox = (await conv.boundingBox())!;
    expect(convBox.width).toBeGreaterThan(600);
    expect(convBox.y + convBox.height).toBeLessThanOrEqual(720);
    const toggle = (await page.getByTestId('view-rows').boundingBox())!;
    expect(toggle.y + toggle.height).toBeLessThanOrEqual(convBox.y + 40);
    await page.screenshot({ path: testInfo.outputPath(`conversation-${scheme}.png`) });
    // The choice is kept across a reload; Rows brings the list back.
    await page.reload();
    await dropFiles(page, [{ name: 'hostile.jsonl', content: HOSTILE }]);
    await expect(page.getByTestId('conversation')).toBeVisible();
    await page.getByTestId('view-rows').click();
    await expect(page.getByTestId('transcript-list')).toBeVisible();
    await expectNothingRan(page);
    expect(dialogs).toEqual([]);
  });
}

test('the transcript exported as HTML opens offline and runs nothing', async ({
  page,
  context,
}, testInfo) => {
  await openHostile(page, 'light');
  await page.getByTestId('export-button').click();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('export-transcript-html').click(),
  ]);
  expect(download.suggestedFilename()).toBe('hostile-transcript.html');
  const file = testInfo.outputPath('transcript.html');
  fs.writeFileSync(file, fs.readFileSync((await download.path())!));
  // Away from the app first: a chunk it was still loading (the export's secrets re-scan) is not the
  // exported file's request.
  await page.goto('about:blank');
  const requests: string[] = [];
  await context.route('**/*', (route) => {
    if (route.request().url() === `file://${file}`) return route.continue();
    requests.push(route.request().url());
    return route.abort();
  });
  await page.goto(`file://${file}`);
  await expect(page.locator('h1')).toContainText('Transcript: hostile.jsonl');
  await expect(page.locator('section.turn')).toHaveCount(2);
  await expect(page.locator('script, img, iframe')).toHaveCount(0);
  await expect(page.locator('a')).toHaveCount(1);
  await page.locator('details.tool summary').click();
  await expect(page.locator('details.tool pre').last()).toHaveText('PASS 12 tests <b>bold?</b>');
  await expectNothingRan(page);
  expect(requests).toEqual([]);
  await page.screenshot({ path: testInfo.outputPath('transcript-html.png') });
  // The Markdown export beside it.
  expect(fs.existsSync(path.join(FIXTURES_DIR, 'xss.jsonl'))).toBe(true);
});
