import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// Rooms of one purpose (CONTRIBUTING.md): no source file passes 500 lines. A file that grows past
// it is split along its seams (a strategy's knobs beside its run, a simulation's turns beside its
// compactions), not trimmed of comments. Counted over every tracked script and source file, tests
// included; generated data (JSON, the bundled sample) is not code and is not counted.

const ROOT = resolve(__dirname, '../..');
const MAX_LINES = 500;
const CODE = /\.(?:ts|tsx|mts|mjs|js|cjs)$/;

/**
 * Files still over the limit, each with the work that splits it. Empty is the goal: an entry here
 * is a debt with an owner, and the test fails when a listed file is already under the limit (so
 * the list only shrinks).
 */
const PENDING: Record<string, string> = {
  'src/engine/parse/dialects/codex-cli/normalizer.ts':
    'split after issue 25 item 5 (token_count order) lands',
};

function trackedCode(): string[] {
  const out = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' });
  return out
    .split('\0')
    .filter((f) => CODE.test(f) && !f.startsWith('public/'))
    .sort();
}

function lineCount(file: string): number {
  const text = readFileSync(resolve(ROOT, file), 'utf8');
  return text.length === 0 ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

describe('file size', () => {
  const files = trackedCode();
  const sizes = new Map(files.map((f) => [f, lineCount(f)]));

  it('has files to count', () => expect(files.length).toBeGreaterThan(300));

  it(`no tracked code file passes ${MAX_LINES} lines`, () => {
    const over = files
      .filter((f) => (sizes.get(f) ?? 0) > MAX_LINES && !(f in PENDING))
      .map((f) => `${f}: ${sizes.get(f)} lines`);
    expect(over, 'split these along their seams').toEqual([]);
  });

  it('lists as pending only files that exist and are still over the limit', () => {
    const stale = Object.keys(PENDING).filter((f) => (sizes.get(f) ?? 0) <= MAX_LINES);
    expect(stale, 'remove these from PENDING: they are split (or gone)').toEqual([]);
  });
});
