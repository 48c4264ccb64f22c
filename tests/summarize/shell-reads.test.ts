import { describe, expect, it } from 'vitest';
import { readCodexExitCode } from '../../src/engine/parse/dialects/codex-cli/exit-code';
import { readPatchFiles } from '../../src/engine/parse/dialects/codex-cli/tool-files';
import { readCommandFiles, splitSimpleCommand } from '../../src/engine/parse/dialects/shared/shell-reads';
import { computeSpanDigest } from '../../src/engine/summarize/digest';
import type { RequestMessage } from '../../src/engine/summarize/types';

// The read commands the span digest recognises (parse/dialects/shared/shell-reads.ts: ours, a small
// documented set) and the ones it must not guess at; hostile command lines and patches stay linear.

describe('a shell command that reads the files it names', () => {
  it.each([
    ['cat a.ts', ['a.ts']],
    ['cat -n a.ts "b c.md"', ['a.ts', 'b c.md']],
    ["sed -n '1,80p' src/x.rs", ['src/x.rs']],
    ["sed -n '1,20p;40,$p' f.go", ['f.go']],
    ['nl -ba pkg/a.go', ['pkg/a.go']],
    ['head -n 50 README.md', ['README.md']],
    ['tail -20 log.txt', ['log.txt']],
    ['/bin/cat /etc/hosts', ['/etc/hosts']],
    ['cat -- -odd-name', ['-odd-name']],
  ])('%s reads %j', (command, files) => {
    expect(readCommandFiles(command)).toEqual(files);
  });

  it.each([
    ['a pipe', "nl -ba f.go | sed -n '1,80p'"],
    ['a redirection', 'cat a > b'],
    ['a second command', 'cd x && cat a'],
    ['a command substitution', 'cat $(ls)'],
    ['a variable', 'cat "$HOME/a"'],
    ['a glob', 'cat src/*.ts'],
    ['a heredoc', "cat <<'EOF'\nx\nEOF"],
    ['an in-place sed', "sed -i 's/a/b/' f"],
    ['a substitution sed', "sed -n 's/a/b/p' f"],
    ['a search (rg)', 'rg -n foo src/a.ts'],
    ['a follow (tail -f)', 'tail -f log'],
    ['an unclosed quote', "cat 'a"],
    ['stdin', 'cat -'],
  ])('%s is no read', (_why, command) => {
    expect(readCommandFiles(command)).toEqual([]);
  });

  it('an operand with a control character or longer than PATH_MAX names no file', () => {
    expect(readCommandFiles("cat 'a\u001b[2Jb.txt'")).toEqual([]);
    expect(readCommandFiles(`cat ${'x'.repeat(10_000)}`)).toEqual([]);
    // A 10,000-character command of many operands is read whole.
    const many = Array.from({ length: 1_000 }, (_, i) => `f${i}.txt`);
    expect(readCommandFiles(`cat ${many.join(' ')}`)).toEqual(many);
  });
});

describe("Codex's apply_patch", () => {
  it('names each file with what the patch does to it', () => {
    const patch = [
      '*** Begin Patch',
      '*** Add File: new.md',
      '+hi',
      '*** Update File: src/a.rs',
      '*** Move to: src/b.rs',
      '@@',
      '-x',
      '+y',
      '*** Delete File: old.txt',
      '*** End Patch',
    ].join('\n');
    expect(readPatchFiles(patch)).toEqual([
      { path: 'new.md', action: 'write' },
      { path: 'src/a.rs', action: 'edit' },
      { path: 'src/b.rs', action: 'write' },
      { path: 'old.txt', action: 'delete' },
    ]);
  });
});

/** A span of one call and its result. */
function span(name: string, input: unknown): RequestMessage[] {
  return [
    { role: 'user', content: 'Go.' },
    { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name, input }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }] },
  ];
}

describe('hostile calls in a span', () => {
  it('a path with control characters is not listed, from a read tool or a patch', () => {
    expect(computeSpanDigest(span('Read', { file_path: '/tmp/\u001b]0;pwned\u0007.ts' })).files).toEqual([]);
    const patch = '*** Begin Patch\n*** Add File: a\u001b[31mred.md\n+x\n*** End Patch';
    expect(computeSpanDigest(span('apply_patch', { input: patch })).files).toEqual([]);
  });

  it("Codex's argv forms: a shell's -lc script, apply_patch run as a program, a bare argv", () => {
    const files = (input: unknown) =>
      computeSpanDigest(span('shell', input)).files.map((f) => [f.path, f.reads, f.edits]);
    expect(files({ command: ['bash', '-lc', "sed -n '1,40p' a.py"] })).toEqual([['a.py', 1, 0]]);
    expect(
      files({
        command: ['apply_patch', '*** Begin Patch\n*** Update File: b.py\n@@\n-a\n+b\n*** End Patch'],
      }),
    ).toEqual([['b.py', 0, 1]]);
    expect(files({ command: ['cat', 'c d.txt'] })).toEqual([['c d.txt', 1, 0]]);
    expect(files({ command: ['bash', '-lc', 'cat a | head'] })).toEqual([]);
  });

  it('a 400 kB command or 1 MB patch built to make a naive pattern backtrack is read in linear time', () => {
    const cases = [
      // Words then an operator at the end: /^(\S+\s+)*$/-style patterns try every split.
      (n: number) => `cat ${'a '.repeat(n)}|`,
      // Quotes that never close, and escapes.
      (n: number) => `cat '${"\\'".repeat(n)}`,
      (n: number) => `sed -n '${'1,'.repeat(n)}p' f`,
    ];
    for (const make of cases) {
      const line = make(200_000);
      const t0 = performance.now();
      expect(readCommandFiles(line)).toEqual([]);
      // Linear: a few hundred ms on a loaded 2-core machine; a quadratic pass over 400 kB takes minutes.
      expect(performance.now() - t0).toBeLessThan(1_500);
    }
    const patch = `*** Begin Patch\n${'*** \n'.repeat(250_000)}*** Update File: x\n*** End Patch`;
    const t0 = performance.now();
    expect(readPatchFiles(patch)).toEqual([{ path: 'x', action: 'edit' }]);
    expect(performance.now() - t0).toBeLessThan(1_000);
    const argv0 = `${'/'.repeat(1_000_000)}x`;
    const t3 = performance.now();
    expect(computeSpanDigest(span('shell', { command: [argv0, '-lc', 'cat f'] })).files).toEqual([]);
    expect(performance.now() - t3).toBeLessThan(1_000);
  });

  it('splits words as a shell does: quotes and escapes undone', () => {
    expect(splitSimpleCommand(`cat "a b" 'c d' e\\ f`)).toEqual(['cat', 'a b', 'c d', 'e f']);
  });
});

describe("Codex's exit codes, the only sign a command failed", () => {
  it.each([
    [
      'Chunk ID: a\nWall time: 0.4 seconds\nProcess exited with code 1\nOriginal token count: 3\nOutput:\nboom',
      1,
    ],
    ['Exit code: 2\nWall time: 0 seconds\nOutput:\n', 2],
    ['{"output":"ls: no such file\\n","metadata":{"exit_code":2,"duration_seconds":0.0}}', 2],
    ['Exit code: 0\nOutput:\nok', 0],
    // What the command itself prints is not the header.
    ['Chunk ID: a\nProcess exited with code 0\nOutput:\nProcess exited with code 1\nExit code: 3', 0],
    ['plain text output', undefined],
    ['{"not json', undefined],
  ])('%j → %s', (output, code) => {
    expect(readCodexExitCode(output)).toBe(code);
  });
});
