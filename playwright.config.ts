import fs from 'node:fs';
import { defineConfig, devices } from '@playwright/test';

// Prefer the system Chromium (Debian: /usr/bin/chromium); CHROMIUM_PATH overrides it; without one,
// Playwright's own browser is used (`npx playwright install chromium` once). PW_BUNDLED_BROWSER=1
// forces that fallback.
const systemChromium = process.env.PW_BUNDLED_BROWSER
  ? undefined
  : [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
      (p): p is string => !!p && fs.existsSync(p),
    );
/** E2E_DEV=1 tests against the `vite` dev server instead of `vite preview` of the last build. */
const DEV = !!process.env.E2E_DEV;
/** E2E_PORT: another port, so test runs in several checkouts at once do not share a server. */
const PORT = Number(process.env.E2E_PORT) || (DEV ? 5173 : 4173);

export default defineConfig({
  testDir: './e2e',
  timeout: 60_000,
  // Compared screenshots (e2e/visual.spec.ts): a pixel whose colour moved less than `threshold`
  // (YIQ distance, 0–1) is the same, and up to 1% of pixels may differ, so font antialiasing and
  // subpixel layout do not fail a run while a moved panel or a changed palette does.
  expect: {
    timeout: 20_000,
    toHaveScreenshot: { threshold: 0.2, maxDiffPixelRatio: 0.01, animations: 'disabled' },
  },
  // One file per worker at a time, two at once: no e2e test measures time any more (the budgets
  // are in bench/browser-timing/), so two browsers share the two cores. E2E_WORKERS overrides.
  workers: Number(process.env.E2E_WORKERS) || 2,
  // Golden screenshots live with the specs, one name per view, the same on every platform.
  snapshotPathTemplate: '{testDir}/__screenshots__/{testFileName}/{arg}{ext}',
  retries: 0,
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    screenshot: 'only-on-failure',
    ...devices['Desktop Chrome'],
    viewport: { width: 1440, height: 900 },
    launchOptions: {
      ...(systemChromium ? { executablePath: systemChromium } : {}),
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        // Debian chromium otherwise resolves update.googleapis.com, accounts.google.com, clients2.google.com.
        '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1',
      ],
    },
  },
  webServer: {
    command: DEV
      ? `npx vite --host 127.0.0.1 --port ${PORT} --strictPort`
      : `npx vite preview --host 127.0.0.1 --port ${PORT} --strictPort`,
    url: `http://127.0.0.1:${PORT}/`,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
  },
});
