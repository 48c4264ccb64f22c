import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HOSTILE, RAW_CONTROL, writeHostileSessions } from '../helpers/hostile';
import { runCli } from '../helpers/run-cli';

// Every command that prints transcript text, on hostile sessions of four dialects (Claude Code with
// subagents, titles and a hostile project folder; Codex with its thread names; pi; Gemini CLI):
// nothing a terminal would act on, nor a bidi or zero-width character, reaches stdout or stderr,
// and --json stays JSON that parses back to the log's own strings.

const hostile = writeHostileSessions();
afterAll(() => rmSync(hostile.root, { recursive: true, force: true }));

const SESSIONS = { claude: hostile.claude, codex: hostile.codex, pi: hostile.pi, gemini: hostile.gemini };

const COMMANDS: string[][] = [
  ['inspect'],
  ['inspect', '--dump'],
  ['replay'],
  ['replay', '--strategy', 'all'],
  ['bash-summaries'],
  ['erosion'],
  ['summarize', '--at', '0'],
  ['stats'],
  ['stats', '--csv'],
  ['stats', '--by', 'project', '--table'],
  ['stats', '--strategy', 'claude-code', '--sessions', '--retention'],
  ['fidelity', '--sessions'],
];
const JSON_COMMANDS = COMMANDS.filter(
  (c) => !c.includes('--dump') && !c.includes('--csv') && !c.includes('--table'),
);

/** A command's arguments on one file; stats in this thread (no worker threads in a test). */
const argv = (file: string, args: string[]) => [
  args[0]!,
  file,
  ...args.slice(1),
  ...(args[0] === 'stats' && !args.includes('--jobs') ? ['--jobs', '0'] : []),
];

function expectInert(text: string, what: string) {
  const m = RAW_CONTROL.exec(text);
  expect(
    m && `U+${m[0].charCodeAt(0).toString(16)} at ${m.index}: …${text.slice(m.index - 40, m.index)}`,
    what,
  ).toBeNull();
}

/** Each output line (NDJSON) or the whole output (one document) parsed. */
function parseJsonOutput(text: string): unknown[] {
  try {
    return [JSON.parse(text)];
  } catch {
    return text
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l));
  }
}

describe('CLI output of hostile sessions', () => {
  for (const [dialect, file] of Object.entries(SESSIONS)) {
    it(`${dialect}: text output escapes every control, bidi and zero-width character`, async () => {
      for (const args of COMMANDS) {
        const { code, text, err } = await runCli(argv(file, args));
        expect(code, `${args.join(' ')}: ${err}`).toBe(0);
        expectInert(text, `${dialect} ${args.join(' ')} stdout`);
        expectInert(err, `${dialect} ${args.join(' ')} stderr`);
      }
      const watch = await runCli(['watch', file, '--once']);
      expectInert(watch.text + watch.err, `${dialect} watch`);
    }, 120_000);

    it(`${dialect}: --json output is JSON holding the log's own strings`, async () => {
      for (const args of JSON_COMMANDS) {
        const { code, text, err } = await runCli([...argv(file, args), '--json']);
        expect(code, `${args.join(' ')} --json: ${err}`).toBe(0);
        expectInert(text, `${dialect} ${args.join(' ')} --json`);
        expect(() => parseJsonOutput(text), `${args.join(' ')} --json parses`).not.toThrow();
      }
    }, 120_000);
  }

  it('the JSON keeps the exact hostile strings: a custom title, a model, a cwd', async () => {
    const { text } = await runCli(['inspect', hostile.claude, '--json']);
    const report = JSON.parse(text);
    expect(report.models.some((m: string) => m.endsWith(HOSTILE))).toBe(true);
    expect(report.cwd.endsWith(HOSTILE)).toBe(true);
    const stats = JSON.parse((await runCli(['stats', hostile.claude, '--jobs', '0'])).text);
    expect(stats.title.startsWith(`Custom${HOSTILE.trimEnd()}`.slice(0, 150))).toBe(true);
  });

  it('search and stats over the whole folder, the project folder named with an escape', async () => {
    for (const args of [
      ['stats', hostile.root, '--jobs', '0'],
      ['stats', hostile.root, '--csv', '--jobs', '0'],
      ['search', hostile.root, 'pwned'],
      ['search', hostile.root, 'evil.example', '--json'],
    ]) {
      const { code, text, err } = await runCli(args);
      expect(code, err).toBe(0);
      expectInert(text, args.join(' '));
      expectInert(err, `${args.join(' ')} stderr`);
    }
    const rows = (await runCli(['stats', hostile.root, '--jobs', '0'])).lines.map((l) => JSON.parse(l));
    expect(rows.map((r) => r.agent).sort()).toEqual(['Claude Code', 'Codex CLI', 'Gemini CLI', 'pi']);
    // The Codex row is named by the thread name its index gives.
    expect(rows.find((r) => r.agent === 'Codex CLI').title).toMatch(/^Thread /);
  });

  it('the status line: a payload and a transcript with escapes print one inert line', () => {
    // Run as Claude Code runs it: the payload on stdin, the line's bytes on stdout.
    const payload = {
      transcript_path: hostile.claude,
      session_id: '\u001b]0;t\u0007',
      version: '2.1.72\u001b[2J\u202e',
      model: { id: 'm\u001b]52;c;eA==\u0007', display_name: 'D\u001b[31m\u200b' },
    };
    const run = spawnSync(process.execPath, [join(__dirname, '../../bin/compactlab.cjs'), 'statusline'], {
      input: JSON.stringify(payload),
      encoding: 'utf8',
      env: { ...process.env, COMPACTLAB_CACHE_DIR: hostile.root },
    });
    expect(run.status).toBe(0);
    expectInert(run.stdout + run.stderr, 'statusline');
    expect(run.stdout).toContain('2.1.72\\x1b[2J\\u202e');
  }, 60_000);
});

describe('files written from hostile sessions', () => {
  it('export --md and the report hold no control sequence, and no Markdown link or image forms', async () => {
    const md = join(hostile.root, 'summaries.md');
    const html = join(hostile.root, 'report.html');
    expect((await runCli(['export', hostile.claude, '--md', '-o', md])).code).toBe(0);
    expect((await runCli(['report', hostile.claude, '-o', html])).code).toBe(0);
    for (const file of [md, html]) {
      const text = readFileSync(file, 'utf8');
      expectInert(text, file);
      expect(text).toContain('⟨U+202E⟩');
    }
    const text = readFileSync(md, 'utf8');
    // Outside the fences (the header, labels, models): no `](` nor `]:` a renderer would follow.
    const outside = text.split(/^(`{3,})text$[\s\S]*?^\1$/m).join('');
    expect(outside).toContain('javascript:window.__pwned=1');
    expect(outside).not.toMatch(/\]\(|\]:/);
    expect(outside).not.toMatch(/<(script|img|a)\b/);
  });
});
