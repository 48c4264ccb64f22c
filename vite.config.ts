/// <reference types="vitest/config" />
import { availableParallelism } from 'node:os';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

// The page's Content-Security-Policy. Applied to the built app only: in dev, Vite and the React
// refresh preamble inject inline scripts that `script-src 'self'` would block.
// worker-src blob: and style-src 'unsafe-inline' are what Monaco needs.
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  // 'wasm-unsafe-eval': compiling WebAssembly (sql.js, for OpenCode's opencode.db), and nothing
  // else: it allows no eval of scripts (CSP Level 3).
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self' blob:",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self' http://127.0.0.1:* http://localhost:* https://api.anthropic.com",
  "font-src 'self' data:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'none'",
].join('; ');

/**
 * Headers for servers that can send them (`vite preview`; copy them to the production host).
 * frame-ancestors and X-Frame-Options are ignored in a <meta> tag, so clickjacking protection
 * needs the header. The dev server gets only the framing rules: the full policy would block
 * Vite's inline scripts.
 */
const FRAME_ANCESTORS = "frame-ancestors 'none'";
export const PREVIEW_HEADERS = {
  'Content-Security-Policy': `${CONTENT_SECURITY_POLICY}; ${FRAME_ANCESTORS}`,
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};
const DEV_HEADERS = { 'Content-Security-Policy': FRAME_ANCESTORS, 'X-Frame-Options': 'DENY' };

function contentSecurityPolicy(): Plugin {
  return {
    name: 'compactlab-csp',
    apply: 'build',
    transformIndexHtml: () => [
      {
        tag: 'meta',
        attrs: { 'http-equiv': 'Content-Security-Policy', content: CONTENT_SECURITY_POLICY },
        injectTo: 'head-prepend',
      },
    ],
  };
}

export default defineConfig({
  plugins: [react(), contentSecurityPolicy()],
  worker: { format: 'es' },
  server: { host: '127.0.0.1', port: 5173, strictPort: true, headers: DEV_HEADERS },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true, headers: PREVIEW_HEADERS },
  // The manifest lists each chunk's static imports: scripts/entry-size.mjs holds the page's startup
  // JavaScript (the entry and what it imports statically) to its budget from it.
  build: { target: 'es2022', chunkSizeWarningLimit: 4096, manifest: true },
  test: {
    environment: 'node',
    testTimeout: 60_000,
    // Both cores (vitest's default leaves one free: a single worker on a 2-core machine).
    maxWorkers: availableParallelism(),
    // Test files share each worker's module cache instead of re-importing the engine per file:
    // the unit stage took 95-125 s with isolation and takes about 21 s without (2 cores, load ~8).
    // Globals are shared too (runs-db.test.ts's fake-indexeddb stays installed for the files after
    // it): a test that needs a global in a given state sets it, and restores what it stubs.
    isolate: false,
    // `unit` runs per commit; `reference` holds the naive-reference checks on the big generated
    // sessions (*.reference.test.ts), a stage of its own that `npm test` and CI run after `unit`.
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['tests/**/*.test.ts'], exclude: ['tests/**/*.reference.test.ts'] },
      },
      { extends: true, test: { name: 'reference', include: ['tests/**/*.reference.test.ts'] } },
    ],
  },
});
