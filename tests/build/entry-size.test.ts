import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { ENTRY_BUDGET_BYTES, measureEntry } from '../../scripts/entry-size.mjs';

// scripts/entry-size.mjs (run by `npm test` after the build) on a build written here: it counts the
// entry and the chunks it imports statically, through each other, never a dynamic import's chunk.

const dist = mkdtempSync(join(tmpdir(), 'entry-size-'));
afterAll(() => rmSync(dist, { recursive: true, force: true }));

const written = new Map<string, Buffer>();

/** Random bytes do not compress: a chunk of `n` bytes weighs a little over `n` gzipped. */
function chunk(name: string, bytes: number): string {
  const data = randomBytes(bytes);
  writeFileSync(join(dist, 'assets', name), data);
  written.set(`assets/${name}`, data);
  return `assets/${name}`;
}

describe('entry-size', () => {
  mkdirSync(join(dist, 'assets'), { recursive: true });
  mkdirSync(join(dist, '.vite'), { recursive: true });
  const manifest = {
    'index.html': {
      file: chunk('index.js', 200_000),
      isEntry: true,
      imports: ['_shared.js'],
      dynamicImports: ['src/worker/engine-handlers.ts'],
    },
    '_shared.js': { file: chunk('shared.js', 100_000), imports: ['_runtime.js'] },
    '_runtime.js': { file: chunk('runtime.js', 1_000), imports: ['_shared.js'] },
    'src/worker/engine-handlers.ts': { file: chunk('engine.js', 500_000), isDynamicEntry: true },
  };
  writeFileSync(join(dist, '.vite/manifest.json'), JSON.stringify(manifest));

  it('sums the entry and its static imports (a cycle once), not the dynamic ones', () => {
    const { chunks, gzipBytes } = measureEntry(dist);
    expect(chunks.map((c) => c.file)).toEqual(['assets/index.js', 'assets/shared.js', 'assets/runtime.js']);
    for (const c of chunks) expect(c.gzipBytes).toBe(gzipSync(written.get(c.file)!).length);
    expect(gzipBytes).toBe(chunks.reduce((s, c) => s + c.gzipBytes, 0));
    // 301 kB that does not compress: over the budget (the script exits 1 on such a build), and
    // without the 500 kB dynamic chunk.
    expect(gzipBytes).toBeGreaterThan(ENTRY_BUDGET_BYTES);
    expect(gzipBytes).toBeLessThan(302_000);
  });

  it('refuses a manifest that names a chunk it does not hold', () => {
    writeFileSync(
      join(dist, '.vite/manifest.json'),
      JSON.stringify({ 'index.html': { file: 'assets/index.js', isEntry: true, imports: ['_gone.js'] } }),
    );
    expect(() => measureEntry(dist)).toThrow(/_gone\.js/);
  });
});
