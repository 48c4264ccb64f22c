/// <reference types="vitest/config" />
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

// The page's Content-Security-Policy, in the built app's <meta> tag and `vite preview`'s headers;
// the dev server sends it with Vite's inline scripts and WebSocket allowed (DEV_HEADERS).
// worker-src blob: and style-src 'unsafe-inline' are what Monaco needs.
export const CONTENT_SECURITY_POLICY = [
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
 * needs the header.
 */
const FRAME_ANCESTORS = "frame-ancestors 'none'";
export const PREVIEW_HEADERS = {
  'Content-Security-Policy': `${CONTENT_SECURITY_POLICY}; ${FRAME_ANCESTORS}`,
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};
/**
 * The dev server (`npm start`) sends the build's policy too, so that `?follow=` and the summarizers
 * reach there only what they reach in the build: two directives differ, for Vite and nothing else.
 * Its scripts: the React refresh preamble and Vite's client are inline. Its connections: the
 * hot-reload WebSocket on the dev server's own host (`ws:` on 127.0.0.1 or localhost).
 */
export const DEV_CONTENT_SECURITY_POLICY = CONTENT_SECURITY_POLICY.split('; ')
  .map((d) =>
    d.startsWith('script-src ')
      ? `${d} 'unsafe-inline'`
      : d.startsWith('connect-src ')
        ? `${d} ws://127.0.0.1:* ws://localhost:*`
        : d,
  )
  .join('; ');
export const DEV_HEADERS = {
  'Content-Security-Policy': `${DEV_CONTENT_SECURITY_POLICY}; ${FRAME_ANCESTORS}`,
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

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

/**
 * The page's startup code in one chunk: every module the entry imports statically, found once the
 * module graph is complete (buildEnd), captured by a code-splitting group. Without it, each lazy
 * chunk that shares startup modules (React, the descriptors, the engine client) made Rolldown split
 * them into a dozen common chunks, each gzipped apart: +4 kB of startup JavaScript for the same code.
 */
function startupChunk(): { plugin: Plugin; test: (id: string) => boolean } {
  const startup = new Set<string>();
  const plugin: Plugin = {
    name: 'compactlab-startup-chunk',
    apply: 'build',
    buildEnd() {
      startup.clear();
      const entries = [...this.getModuleIds()].filter((id) => this.getModuleInfo(id)?.isEntry);
      const stack = [...entries];
      while (stack.length > 0) {
        const id = stack.pop()!;
        if (startup.has(id)) continue;
        startup.add(id);
        for (const next of this.getModuleInfo(id)?.importedIds ?? []) stack.push(next);
      }
    },
  };
  return { plugin, test: (id) => startup.has(id) };
}
const STARTUP = startupChunk();

/**
 * Empties the build's folder but for `cli/`, the CLI's bundle (`npm install`'s `prepare`): Vite's
 * own emptying deleted it, and `compactlab` then ran silently from the sources through tsx.
 */
export function keepCliBundle(): Plugin {
  let outDir = 'dist';
  return {
    name: 'compactlab-keep-cli-bundle',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    buildStart() {
      if (!existsSync(outDir)) return;
      for (const name of readdirSync(outDir))
        if (name !== 'cli') rmSync(join(outDir, name), { recursive: true, force: true });
    },
  };
}

export default defineConfig({
  plugins: [react(), contentSecurityPolicy(), keepCliBundle(), STARTUP.plugin],
  worker: { format: 'es' },
  server: { host: '127.0.0.1', port: 5173, strictPort: true, headers: DEV_HEADERS },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true, headers: PREVIEW_HEADERS },
  // keepCliBundle empties the folder instead, keeping dist/cli. The manifest lists each chunk's
  // static imports: scripts/entry-size.mjs holds the page's startup JavaScript (the entry and what
  // it imports statically) to its budget from it.
  build: {
    target: 'es2022',
    chunkSizeWarningLimit: 4096,
    emptyOutDir: false,
    manifest: true,
    rolldownOptions: { output: { codeSplitting: { groups: [{ name: 'startup', test: STARTUP.test }] } } },
  },
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
