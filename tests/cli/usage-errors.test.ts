import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { joinNegativeValues, parseArgs, reportCommandError, UsageError } from '../../src/cli/cli-args';
import { runCli } from '../helpers/run-cli';

// The command line's own errors (src/cli/cli-args.ts): every command exits 2 with a message naming
// the flag, whether the command checks the value itself, node's parseArgs refuses it, or the value
// names something the session or the registries do not have; flags that exclude each other are
// refused rather than one silently winning; a negative number after a flag reaches the flag's
// range check instead of parseArgs' "argument is ambiguous".

const TINY = join(__dirname, '../fixtures/tiny.jsonl');

describe('joinNegativeValues', () => {
  const options = { pct: { type: 'string' }, json: { type: 'boolean' } } as const;

  it('joins a negative number to the flag that takes a value, and nothing else', () => {
    expect(joinNegativeValues(['f', '--pct', '-5'], options)).toEqual(['f', '--pct=-5']);
    for (const n of ['-0.5', '-.5', '-1e3', '-12'])
      expect(joinNegativeValues(['--pct', n], options)).toEqual([`--pct=${n}`]);
    // A following flag is not swallowed: --pct still lacks its value.
    expect(joinNegativeValues(['--pct', '--json'], options)).toEqual(['--pct', '--json']);
    expect(joinNegativeValues(['--pct', '-5x'], options)).toEqual(['--pct', '-5x']);
    // A boolean flag takes no value; the = form and what follows `--` are left as they are.
    expect(joinNegativeValues(['--json', '-5'], options)).toEqual(['--json', '-5']);
    expect(joinNegativeValues(['--pct=-5'], options)).toEqual(['--pct=-5']);
    expect(joinNegativeValues(['--', '--pct', '-5'], options)).toEqual(['--', '--pct', '-5']);
  });

  it('parses as the = form does, refuses flags that exclude each other, and says so as usage errors', () => {
    const args = ['f', '--pct', '-5', '--json'];
    expect(parseArgs({ args, options, allowPositionals: true }).values).toEqual({ pct: '-5', json: true });
    expect(() =>
      parseArgs(
        { args: ['--json', '--csv'], options: { json: { type: 'boolean' }, csv: { type: 'boolean' } } },
        {
          exclusive: [['json', 'csv']],
        },
      ),
    ).toThrow(new UsageError('--json and --csv: give one'));
    expect(() => parseArgs({ args: ['--nope'], options })).toThrow(UsageError);
    expect(() => parseArgs({ args: ['--pct'], options })).toThrow(UsageError);
  });
});

describe('usage errors exit 2, naming the flag', () => {
  const cases: [string[], RegExp][] = [
    // Flags that exclude each other: one output each.
    [['inspect', TINY, '--json', '--dump'], /--json and --dump: give one/],
    [['stats', TINY, '--json', '--csv'], /--json and --csv: give one/],
    [['stats', TINY, '--by', 'day', '--csv', '--table'], /--csv and --table: give one/],
    // A negative number reaches the flag's own range check.
    [['replay', TINY, '--pct', '-5'], /--pct is at least 1%, got "-5"/],
    [['summarize', TINY, '--at', '-1'], /"-1" is neither an API call index/],
    [['stats', TINY, '--jobs', '-1'], /--jobs expects a whole number, got "-1"/],
    [['watch', TINY, '--interval-ms', '-5'], /--interval-ms expects a number ≥ 50, got "-5"/],
    // A flag missing its value still says so (the next flag is not taken for it).
    [['replay', TINY, '--pct', '--json'], /'--pct' argument is ambiguous/],
    // Names the registries or the session do not have.
    [['replay', TINY, '--strategy', 'nope'], /Unknown strategy "nope"/],
    [['report', TINY, '-o', '/dev/null', '--strategy', 'nope'], /Unknown strategy "nope"/],
    [['summarize', TINY, '--at', '999'], /No API call 999 \(the session has 6\)/],
    // The page's "Compaction 1" is c0 here: the error lists each with its line to tell them apart.
    [
      ['summarize', TINY, '--at', 'c9'],
      /c9 is not a compaction of this transcript; its full compactions: c0 = [0-9a-f-]{36} \(auto at line 16\)/,
    ],
    [['summarize', TINY, '--at', '5', '--preset', 'nope'], /Unknown preset "nope"/],
    [['summarize', TINY, '--at', '5', '--max-tokens', 'x'], /--max-tokens expects a number, got "x"/],
    [['inspect', TINY, '--bogus'], /Unknown option '--bogus'/],
    // The summaries are the log's own: a replay's knobs shape only the compacted transcript.
    [
      ['export', TINY, '--md', '-o', '/dev/null', '--knob', 'bogus=1'],
      /--strategy and --knob shape --jsonl only/,
    ],
    // --keep-from: only a partial compaction keeps messages, from an API call inside its span.
    [
      ['summarize', TINY, '--at', '5', '--keep-from', '3'],
      /--keep-from goes with a partial compaction's preset \(claude-code-partial\)/,
    ],
    [
      ['summarize', TINY, '--preset', 'claude-code-partial', '--at', '5', '--keep-from', '999'],
      /--keep-from 999: API call index 999 is not one of the span's \(indices 4–5/,
    ],
    [
      ['summarize', TINY, '--preset', 'claude-code-partial', '--at', '5', '--keep-from', '-2'],
      /--keep-from -2: API call index -2/,
    ],
  ];
  for (const [args, message] of cases)
    it(args.slice(0, 1).concat(args.slice(2)).join(' '), async () => {
      const r = await runCli(args);
      expect(r.err).toMatch(message);
      expect(r.code).toBe(2);
      expect(r.lines).toEqual([]);
    });

  it('a --keep-from inside the span keeps the messages before it', async () => {
    const r = await runCli([
      'summarize',
      TINY,
      '--preset',
      'claude-code-partial',
      '--at',
      '5',
      '--keep-from',
      '5',
      '--json',
    ]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.text).request.retainedMessages).toBeGreaterThan(0);
  });

  it('what the command cannot do is exit 1, not a usage error', async () => {
    const r = await runCli(['inspect', join(__dirname, '../fixtures/no-such-file.jsonl')]);
    expect(r.code).toBe(1);
  });
});

// A replay that names a strategy file runs in a worker thread (src/cli/strategy-thread.ts): its
// usage errors are the same exit 2 as on the main thread, and what it throws is said as `main`
// says it (a `UsageError` thrown out of a thread reached the parent as a plain Error: exit 1).
describe('with a strategy file: usage errors exit 2, in its thread too', () => {
  const CLEAR = join(__dirname, '../../examples/strategies/clear-old-results.ts');
  const cases: [string[], RegExp][] = [
    [
      ['replay', TINY, '--strategy-file', CLEAR, '--knob', 'nosuch=3'],
      /--knob expects <key>=<value> with a knob/,
    ],
    [
      ['replay', TINY, '--strategy-file', CLEAR, '--knob', 'triggerTokens=abc'],
      /triggerTokens expects a number/,
    ],
    [['replay', TINY, '--strategy-file', CLEAR, '--sweep', 'nosuch=1:2:3'], /"nosuch" is not a numeric knob/],
    // Its help is the file's: a file's id names nothing to another run.
    [
      ['replay', TINY, '--strategy-file', CLEAR, '--pct', '5'],
      /Unknown option '--pct'.*\(compactlab replay --strategy-file \S*clear-old-results\.ts --help lists its knobs\)/s,
    ],
    [['replay', TINY, '--strategy-file', CLEAR, '--strategy-memory', '5'], /--strategy-memory expects/],
    [['replay', TINY, '--strategy', `claude-code,${CLEAR}`, '--pct', '-5'], /--pct is at least 1%/],
    // A manual compaction or a sweep in a table: refused, not silently dropped (it exited 0).
    [['replay', TINY, '--strategy', `claude-code,${CLEAR}`, '--compact-at', '3'], /--compact-at takes one/],
    [
      ['replay', TINY, '--strategy-file', CLEAR, '--sweep', 'keepTurns=1:3:3', '--compact-at', '3'],
      /--sweep and --compact-at: give one/,
    ],
    [['stats', TINY, '--strategy-file', CLEAR, '--knob', 'nope=1'], /--knob expects <key>=<value>/],
    [['stats', TINY, '--strategy-file', CLEAR, '--sweep', 'nope=1:2:3'], /"nope" is not a numeric knob/],
    [
      ['stats', TINY, '--strategy-file', CLEAR, '--json', '--csv'],
      /--json and --csv: give one \(compactlab replay --strategy-file \S*clear-old-results\.ts --help/,
    ],
    [['stats', TINY, '--strategy-file', CLEAR, '--by', 'day'], /--by and --strategy-file: give one/],
  ];
  for (const [args, message] of cases)
    it(args.slice(0, 1).concat(args.slice(2)).join(' ').replace(CLEAR, 'clear-old-results.ts'), async () => {
      const r = await runCli(args);
      expect(r.err).toMatch(message);
      expect(r.code).toBe(2);
      expect(r.lines).toEqual([]);
    }, 30_000);

  it('a session the thread cannot read: exit 1, said as without a file (not "the thread failed")', async () => {
    const missing = join(__dirname, '../fixtures/no-such-file.jsonl');
    const plain = await runCli(['replay', missing]);
    const threaded = await runCli(['replay', missing, '--strategy-file', CLEAR]);
    expect(plain.code).toBe(1);
    expect(threaded.code).toBe(1);
    expect(threaded.err).toBe(plain.err);
    expect(threaded.err).toMatch(/no-such-file\.jsonl: no such file or folder/);
  }, 30_000);

  it('reportCommandError: a UsageError is 2, any other error 1, a file error in words', () => {
    const write = process.stderr.write;
    const err: string[] = [];
    process.stderr.write = ((t: string) => err.push(t) > 0) as typeof process.stderr.write;
    try {
      expect(reportCommandError('replay', new UsageError('bad flag'))).toBe(2);
      const enoent = Object.assign(new Error('ENOENT: …'), { code: 'ENOENT', path: '/x' });
      expect(reportCommandError('replay', enoent)).toBe(1);
    } finally {
      process.stderr.write = write;
    }
    expect(err).toEqual(['compactlab replay: bad flag\n', 'compactlab replay: /x: no such file or folder\n']);
  });
});
