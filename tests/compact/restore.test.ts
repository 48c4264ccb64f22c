import { at } from '../../src/engine/assert';
import { describe, expect, it } from 'vitest';
import {
  computeRestoration,
  DEFAULT_RESTORE_LIMITS,
  type FileAccess,
  isExcludedFromRestore,
} from '../../src/engine/compact/restore';

const access = (path: string, fileTokens: number, entryIndex = 0): FileAccess => ({
  path,
  tool: 'Read',
  entryIndex,
  fileTokens,
});

describe('computeRestoration (bD5 / fD5 / XQ0)', () => {
  it('re-attaches at most 5 files, most recent first, one entry per path', () => {
    const accesses = ['a', 'b', 'c', 'a', 'd', 'e', 'f', 'g'].map((p, i) => access(`/src/${p}.ts`, 100, i));
    const r = computeRestoration({ accesses, limits: DEFAULT_RESTORE_LIMITS });
    expect(r.files.map((f) => f.path)).toEqual([
      '/src/g.ts',
      '/src/f.ts',
      '/src/e.ts',
      '/src/d.ts',
      '/src/a.ts',
    ]);
  });

  it('attaches files over 5,000 tokens as a reference (or truncated), keeps the total under 50,000', () => {
    const r = computeRestoration({ accesses: [access('/big.ts', 80_000)], limits: DEFAULT_RESTORE_LIMITS });
    expect(r.files[0]).toMatchObject({ referenceOnly: true, truncated: false, fileTokens: 80_000 });
    expect(at(r.files, 0).tokens).toBeLessThan(50);
    const cut = computeRestoration({
      accesses: [access('/big.ts', 80_000)],
      limits: { ...DEFAULT_RESTORE_LIMITS, oversized: 'truncate' },
    });
    expect(cut.files[0]).toMatchObject({ truncated: true, referenceOnly: false });
    expect(at(cut.files, 0).tokens).toBeGreaterThan(5_000);
    expect(at(cut.files, 0).tokens).toBeLessThan(5_050);
    const tight = computeRestoration({
      accesses: [access('/a.ts', 4_000), access('/b.ts', 4_000), access('/c.ts', 1_000)],
      limits: { ...DEFAULT_RESTORE_LIMITS, totalTokens: 4_500 },
    });
    // c (newest, ~1k) fits; b and a (~4k each) would each take the total over 4,500.
    expect(tight.files.map((f) => f.path)).toEqual(['/c.ts']);
    expect(tight.overBudget.map((f) => f.path)).toEqual(['/b.ts', '/a.ts']);
    expect(tight.totalTokens).toBeLessThanOrEqual(4_500);
  });

  it('skips excluded files, adds todos and plan after the files', () => {
    expect(isExcludedFromRestore('/home/u/project/CLAUDE.md')).toBe(true);
    expect(isExcludedFromRestore('/home/u/.claude/plans/p.md')).toBe(true);
    expect(isExcludedFromRestore('C:\\Users\\u\\.claude\\todos\\t.json')).toBe(true);
    expect(isExcludedFromRestore('/home/u/project/src/claude.ts')).toBe(false);
    const r = computeRestoration({
      accesses: [access('/p/CLAUDE.md', 500), access('/p/a.ts', 500)],
      todo: { entryIndex: 3, tokens: 40 },
      plan: { entryIndex: 4, tokens: 900, path: '/home/u/.claude/plans/p.md' },
      limits: DEFAULT_RESTORE_LIMITS,
    });
    expect(r.files.map((f) => f.path)).toEqual(['/p/a.ts']);
    expect(r.totalTokens).toBe(at(r.files, 0).tokens + 40 + 900);
    expect(
      computeRestoration({
        accesses: [],
        todo: { entryIndex: 1, tokens: 40 },
        limits: { ...DEFAULT_RESTORE_LIMITS, todos: false },
      }).todo,
    ).toBeUndefined();
  });

  it('carries the files of the previous compaction after newer accesses', () => {
    const carried = computeRestoration({
      accesses: [access('/old.ts', 100)],
      limits: DEFAULT_RESTORE_LIMITS,
    }).files;
    const r = computeRestoration({
      accesses: [access('/new.ts', 100)],
      carried,
      limits: DEFAULT_RESTORE_LIMITS,
    });
    expect(r.files.map((f) => f.path)).toEqual(['/new.ts', '/old.ts']);
  });
});
