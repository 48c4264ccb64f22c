import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
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

// A descriptor its parent left non-blocking (a pipe whose other end a reader drains late): a write
// meets EAGAIN once the pipe is full, and the output must still arrive whole, in order. Node makes
// no such pipe for a child, so python3 does (the one other tool CI has); skipped where it is absent.
const SAMPLES = join(ROOT, 'public/samples');
const sample = join(SAMPLES, JSON.parse(readFileSync(join(SAMPLES, 'index.json'), 'utf8')).files[0].path);
const hasPython = spawnSync('python3', ['-c', '0']).status === 0;
const LATE_READER = `
import fcntl, os, subprocess, sys, time
r, w = os.pipe()
fcntl.fcntl(w, fcntl.F_SETFL, fcntl.fcntl(w, fcntl.F_GETFL) | os.O_NONBLOCK)
child = subprocess.Popen(sys.argv[1:], stdout=w)
os.close(w)
time.sleep(1.5)
out = b''
while True:
    chunk = os.read(r, 65536)
    if not chunk:
        break
    out += chunk
sys.stdout.buffer.write(out)
sys.exit(child.wait())
`;

describe.skipIf(!hasPython)('compactlab into a non-blocking pipe read late', () => {
  it('writes all of its output, in order, after the pipe was full (EAGAIN)', () => {
    const args = [join(ROOT, 'bin/compactlab.cjs'), 'inspect', sample, '--dump'];
    const direct = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 26 });
    expect(direct.stdout.length).toBeGreaterThan(100_000); // over a pipe's 64 KiB
    const late = spawnSync('python3', ['-c', LATE_READER, process.execPath, ...args], {
      encoding: 'utf8',
      maxBuffer: 1 << 26,
    });
    expect(late.status).toBe(0);
    expect(late.stdout).toBe(direct.stdout);
  }, 60_000);
});
if (!hasPython) describe.skip('compactlab into a non-blocking pipe — python3 is absent', () => it('skipped'));
