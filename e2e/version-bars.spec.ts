import fs from 'node:fs';
import path from 'node:path';
import { dropFiles, expect, openEmpty, REPO_ROOT, test } from './fixtures';

// The timeline's threshold bars and window label for one real log of each agent, as the version
// that wrote it would draw them (tests/replay/version-knobs-real.test.ts holds the engine to the
// same figures): Gemini CLI's compression at its release's default (0.7 in September 2025, not
// 0.5), Codex 0.47.0's logged window read as the raw one (auto-compact 244,800, not 257,684), a
// Claude Code 2.1.229 log on the 1M window its context reached, pi's window from its registry,
// Cline's maxAllowedSize. Other people's logs, read in place from ../shared/corpus; skipped when
// absent.

const CORPUS = path.join(REPO_ROOT, '../shared/corpus');
const FOREIGN = path.join(CORPUS, 'foreign');

const CASES = [
  {
    agent: 'Gemini CLI (2025-09, release 0.1.10–0.11.2: 0.7)',
    file: path.join(
      FOREIGN,
      'Tar-ive__brain-system/.gemini/tmp/596d3688fee3b82f59f4aa1d0b90f625ade4afad4f1c4d84b80bd2f4141260aa/chats/session-2025-09-16T20-39-38d857b1.json',
    ),
    bars: { 'threshold-compress': 734_004 },
    window: 1_048_576,
  },
  {
    agent: 'Codex CLI 0.47.0 (logged the raw window)',
    file: path.join(
      FOREIGN,
      'Redaration__praxis3/.codex/sessions/2025/10/19/rollout-2025-10-19T19-26-51-0199fdf0-5aa9-73a1-97af-7a759d33c95f.jsonl',
    ),
    bars: { 'threshold-autocompact': 244_800 },
    window: 272_000,
  },
  {
    agent: 'Claude Code 2.1.229 (context past 200k: the 1M window)',
    file: path.join(
      CORPUS,
      'hannibal8856__claude_backup/claude__projects__-home-moxa-sdc1-home-moxa-mds4xgl3-buildroot-dl__bdcc4d2c-9721-438a-afe2-8482c5b0ae9b.jsonl',
    ),
    bars: { 'threshold-autocompact': 967_000, 'threshold-warning': 947_000 },
    window: 1_000_000,
  },
  {
    agent: 'pi (Qwen3-235B in its registry: 262,144)',
    file: path.join(
      FOREIGN,
      'timerloggedout-spec__termux-monorepo/.pi/agent/sessions/--data-data-com.termux-files-home--/2026-04-26T23-29-37-040Z_019dcc20-86ff-75a4-a8fb-5ff31e467f6e.jsonl',
    ),
    bars: { 'threshold-compact': 245_760 },
    window: 262_144,
  },
  {
    agent: 'Cline (a 128k window stated by the UI log)',
    file: path.join(FOREIGN, 'Jeehunter__mcp-vscode-server/ui_messages.json'),
    bars: { 'threshold-maxallowed': 98_000 },
    window: 128_000,
  },
];

test.describe("each agent's bars as the version that wrote the log", () => {
  for (const c of CASES) {
    test(c.agent, async ({ page }, info) => {
      test.skip(!fs.existsSync(c.file), `real log not found at ${c.file}`);
      await page.setViewportSize({ width: 1280, height: 720 });
      await openEmpty(page);
      await dropFiles(page, [{ name: path.basename(c.file), content: fs.readFileSync(c.file, 'utf8') }]);
      const readout = page.getByTestId('threshold-readout');
      for (const [testId, tokens] of Object.entries(c.bars))
        await expect(readout.getByTestId(testId)).toHaveAttribute('data-value', String(tokens));
      // The window is the chart's frame, named by the note above it.
      await expect(page.getByTestId('window-note')).toHaveAttribute('data-window', String(c.window));
      await page.screenshot({ path: info.outputPath('bars.png') });
    });
  }
});

// The profile select named a profile by the release its code was read from: a 2.1.229 log read
// 'Profile v2.1.68', as if another release's rules were drawn. It now names the releases each
// covers (the full rule stays in its tooltip), the log's own version among them.
test.describe('the profile a Claude Code log picks, named by the releases it covers', () => {
  const PROFILE_CASES = [
    { file: CASES[2]!.file, version: '2.1.229', value: 'v2.1.68', shown: '2.1.21+' },
    {
      file: path.join(
        CORPUS,
        'aistrad__work/claude__projects__-home-aiscend-work-vibelife__560343df-fb9a-4a40-af98-7c1fa4218709.jsonl',
      ),
      version: '2.1.19',
      value: 'v2.0',
      shown: '≤2.1.20',
    },
  ];
  for (const c of PROFILE_CASES) {
    test(`a ${c.version} log: '${c.shown}'`, async ({ page }) => {
      test.skip(!fs.existsSync(c.file), `real log not found at ${c.file}`);
      const text = fs.readFileSync(c.file, 'utf8');
      // The version as the log's records state it (the most frequent), read without the engine.
      const versions = new Map<string, number>();
      for (const m of text.matchAll(/"version":"([\d.]+)"/g))
        versions.set(m[1]!, (versions.get(m[1]!) ?? 0) + 1);
      expect([...versions].sort((a, b) => b[1] - a[1])[0]![0]).toBe(c.version);
      await page.setViewportSize({ width: 1280, height: 720 });
      await openEmpty(page);
      await dropFiles(page, [{ name: path.basename(c.file), content: text }]);
      const select = page.getByTestId('knob-profile');
      await expect(select).toHaveValue(c.value);
      expect(await select.evaluate((s: HTMLSelectElement) => s.selectedOptions[0]?.textContent)).toBe(
        c.shown,
      );
      await expect(select.locator('option')).toHaveText(['2.1.21+', '≤2.1.20', '<1.0.71']);
    });
  }
});
