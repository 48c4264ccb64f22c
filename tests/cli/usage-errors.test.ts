import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { joinNegativeValues, parseArgs, UsageError } from '../../src/cli/cli-args';
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
    [['summarize', TINY, '--at', 'c9'], /No full compaction 9/],
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
