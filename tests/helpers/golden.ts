import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { expect } from 'vitest';

// The one golden comparison (STYLE.md §7). `UPDATE_GOLDEN=1` writes the file; without it a missing
// golden fails, so a renamed case or a typo in its name cannot pass by writing what it got.

const ROOT = resolve(__dirname, '../..');
const TESTS = resolve(__dirname, '..');

/** Compares `actual` with `tests/<name>.txt` (`name`: e.g. `golden/replay/tiny`). */
export function expectGolden(name: string, actual: string): void {
  const path = join(TESTS, `${name}.txt`);
  if (process.env.UPDATE_GOLDEN) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, actual);
  }
  if (!existsSync(path))
    throw new Error(
      `golden ${relative(ROOT, path)} is missing: create it with \`UPDATE_GOLDEN=1 npx vitest run <this test>\` and review it`,
    );
  expect(actual).toBe(readFileSync(path, 'utf8'));
}
