import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli';

// `compactlab <command> --help` (src/cli/main.ts) prints that command's usage, not the 160 lines
// of every command: its own forms (all three of `stats`), the options, how files are taken and
// the exit codes; `compactlab --help` still prints them all, and an unknown command says so.

const COMMANDS = [
  'inspect',
  'summarize',
  'statusline',
  'watch',
  'stats',
  'search',
  'bash-summaries',
  'report',
  'export',
  'erosion',
  'fidelity',
];

/** The commands a help text gives a usage line of. */
const commandsIn = (text: string): string[] => [
  ...new Set([...text.matchAll(/^ {2}compactlab ([a-z-]+)/gm)].map((m) => m[1] ?? '')),
];

describe('compactlab <command> --help', () => {
  it('prints that command only, with the shared options and exit codes', async () => {
    const all = await runCli(['--help']);
    expect(all.code).toBe(0);
    expect(commandsIn(all.text).sort()).toEqual([...COMMANDS, 'replay'].sort());
    for (const command of COMMANDS) {
      const { code, text: out } = await runCli([command, '--help']);
      expect(code, command).toBe(0);
      expect(commandsIn(out), command).toEqual([command]);
      expect(out).toMatch(/^Usage:\n/);
      expect(out).toContain('Exit codes:');
      expect(out).toContain('Every command: compactlab --help');
      // Each block is the one the whole help holds, word for word.
      const block = out.slice('Usage:\n'.length, out.indexOf('\n\nOptions:'));
      expect(all.text).toContain(block);
    }
    expect((await runCli(['stats', '-h'])).text.match(/^ {2}compactlab stats/gm)).toHaveLength(3);
  });

  it('says an unknown command is unknown, --help or not, and exits 2', async () => {
    const { code, err } = await runCli(['nope', '--help']);
    expect(code).toBe(2);
    expect(err).toContain('unknown command "nope"');
  });

  it('inspect with no file prints its own usage and exits 2', async () => {
    const { code, text: out } = await runCli(['inspect']);
    expect(code).toBe(2);
    expect(commandsIn(out)).toEqual(['inspect']);
  });
});
