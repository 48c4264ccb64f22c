import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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

describe('a file that is no transcript, given to replay', () => {
  it('says what the parse found, not that the transcript has no call', async () => {
    const picture = join(dir, 'screenshot.png');
    writeFileSync(picture, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]));
    const run = await runCli(['replay', picture]);
    expect(run.code).toBe(1);
    expect(run.err).toMatch(/^compactlab replay: screenshot\.png is not a transcript: it is a PNG image/);
    const prompts = join(dir, 'history.jsonl');
    writeFileSync(
      prompts,
      `${JSON.stringify({ display: 'hi', pastedContents: {}, timestamp: 1, project: '/p' })}\n`,
    );
    expect((await runCli(['replay', prompts])).err).toContain("it is Claude Code's prompt history");
  });
});
