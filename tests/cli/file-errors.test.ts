import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli';

// A path that is not there said "ENOENT: no such file or directory, stat '…'", Node's words for
// the call that failed. The command now names the path and what is wrong with it.

const dir = mkdtempSync(join(tmpdir(), 'compactlab-file-errors-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a path the commands cannot read', () => {
  const missing = join(dir, 'no-such-session.jsonl');
  it.each([
    ['inspect', [missing]],
    ['replay', [missing]],
    ['stats', [missing]],
    ['search', [missing, 'x']],
  ])('%s names it and says why', async (command, args) => {
    const run = await runCli([command, ...args]);
    expect(run.code).toBe(1);
    expect(run.err).toBe(`compactlab ${command}: ${missing}: no such file or folder\n`);
  });
});
