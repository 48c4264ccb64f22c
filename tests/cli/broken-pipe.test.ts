import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// A reader that stops early (`compactlab inspect big.jsonl --json | head -c 100`) closes the pipe
// while the command still writes. It printed Node's "Unhandled 'error' event … write EPIPE" stack
// on stderr and exited 1; the command now ends quietly, as `cat` and `rg` do (src/cli/stdout.ts).
// The pipe is closed before the child writes a byte, so every write of it meets the closed pipe.

const ROOT = join(__dirname, '../..');
const FIXTURES = join(ROOT, 'tests/fixtures');

function runIntoClosedPipe(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin/compactlab.cjs'), ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      stderr += text;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('compactlab into a pipe its reader closed', () => {
  it.each([
    ['inspect --json (its own script)', ['inspect', join(FIXTURES, 'tiny.jsonl'), '--json']],
    ['inspect, text', ['inspect', join(FIXTURES, 'tiny.jsonl')]],
    ['stats (the bundle, a worker thread)', ['stats', join(FIXTURES, 'folder'), '--jobs', '1']],
    ['--help', ['--help']],
  ])('%s: ends quietly, exit 0, no stack on stderr', async (_, args) => {
    const { code, stderr } = await runIntoClosedPipe(args);
    // stats says its progress on stderr; nothing else may be there.
    expect(stderr.replace(/^compactlab stats: .*\n/gm, '')).toBe('');
    expect(code).toBe(0);
  });
});
