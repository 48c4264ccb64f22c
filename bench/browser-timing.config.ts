import path from 'node:path';
import { defineConfig } from '@playwright/test';
import base from '../playwright.config';

// The e2e tests that time the page, held to their budgets (`npm run bench`, from bench/browser.ts):
// a folder scan with no main-thread task over 50 ms (e2e/library-scan.spec.ts) and a 34,000-call
// session zoomed and scrolled within 10 s each (e2e/big-file.spec.ts). One browser at a time, so
// nothing of the suite's own shares the cores with the page being timed. In `npm test` the same
// tests run two at a time, assert behaviour only and report their figures.
process.env.E2E_TIMING_BUDGETS = '1';
const root = path.resolve(import.meta.dirname, '..');

export default defineConfig({
  ...base,
  testDir: path.join(root, 'e2e'),
  testMatch: ['library-scan.spec.ts', 'big-file.spec.ts'],
  outputDir: path.join(root, 'test-results', 'bench'),
  workers: 1,
  webServer:
    base.webServer && !Array.isArray(base.webServer) ? { ...base.webServer, cwd: root } : base.webServer,
});
