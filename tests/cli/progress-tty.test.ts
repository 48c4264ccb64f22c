import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main';
import { corpusOrSkip, FOREIGN } from '../helpers/corpus';

// A command over many sessions run in a terminal, its output not redirected: the count of
// sessions done (stderr) and the rows (stdout) reach the same screen. The rows were written after
// the count's line, on it ('compactlab stats: 1/14 sessions{"file":…'), so no row copied from the
// screen was JSON; search and fidelity said nothing for as long as they read (27 s over 2,000
// generated sessions). Each command here runs in this process with stderr a terminal, both
// streams captured in their order and drawn as a terminal draws them.

const present = corpusOrSkip('the progress lines over the foreign corpus');

/** What a terminal shows of `text`: `\r` back to column 0, `ESC [2K` erases the line. */
function drawTerminal(text: string): string[] {
  const lines: string[] = [];
  let line: string[] = [];
  let col = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (text.startsWith('\x1b[2K', i)) {
      line = [];
      i += 3;
    } else if (c === '\r') col = 0;
    else if (c === '\n') {
      lines.push(line.join(''));
      line = [];
      col = 0;
    } else line[col++] = c;
  }
  if (line.length > 0) lines.push(line.join(''));
  return lines;
}

/** `compactlab <args>` with stderr a terminal: the screen and the raw bytes both streams wrote. */
async function runOnTerminal(args: string[]): Promise<{ code: number; screen: string[]; raw: string }> {
  const written: string[] = [];
  const write = process.stderr.write;
  const tty = Object.getOwnPropertyDescriptor(process.stderr, 'isTTY');
  Object.defineProperty(process.stderr, 'isTTY', { value: true, configurable: true });
  process.stderr.write = ((t: string) => {
    written.push(String(t));
    return true;
  }) as typeof process.stderr.write;
  try {
    const code = await main(args, (t) => written.push(`${t}\n`));
    const raw = written.join('');
    return { code, screen: drawTerminal(raw), raw };
  } finally {
    process.stderr.write = write;
    if (tty) Object.defineProperty(process.stderr, 'isTTY', tty);
    else delete (process.stderr as { isTTY?: boolean }).isTTY;
  }
}

/** Seven small sessions of four agents (Codex, Gemini CLI's prompt log, Cline, pi). */
const SMALL = [
  'Redaration__praxis3',
  'Tar-ive__brain-system',
  'Jeehunter__mcp-vscode-server',
  'timerloggedout-spec__termux-monorepo',
].map((f) => join(FOREIGN, f));

const counted = (command: string) => new RegExp(`^compactlab ${command}: \\d+/\\d+ sessions$`);

describe.skipIf(!present)('progress on a terminal, output on the same screen', () => {
  it('stats: every row on the screen is a whole JSON record, the count on a line of its own', async () => {
    const { code, screen, raw } = await runOnTerminal(['stats', ...SMALL, '--jobs', '0']);
    expect(code).toBe(0);
    const counts = raw.match(/compactlab stats: \d+\/\d+ sessions/g) ?? [];
    expect(counts.length).toBeGreaterThan(4); // a count per session, rewritten in place, and the last kept
    const rows = screen.filter((l) => !counted('stats').test(l) && l !== '');
    expect(rows.length).toBe(counts.length - 1);
    for (const row of rows) expect(() => JSON.parse(row), row.slice(0, 80)).not.toThrow();
    expect(screen.at(-1)).toBe(`compactlab stats: ${rows.length}/${rows.length} sessions`);
  });

  it('stats --strategy --sessions --csv: every screen line a CSV record', async () => {
    const { screen } = await runOnTerminal([
      'stats',
      join(FOREIGN, 'brexp__infra'),
      '--strategy',
      'gemini-cli',
      '--sessions',
      '--csv',
      '--jobs',
      '0',
    ]);
    // stderr's own lines (the prompt log left out, not a session) start with the command's name.
    const records = screen.filter((l) => !l.startsWith('compactlab stats: ') && l !== '');
    expect(records[0]).toMatch(/^row,strategy,/);
    expect(records.length).toBeGreaterThan(3);
    for (const l of records.slice(1)) expect(l).toMatch(/^(session|total),gemini-cli,/);
  });

  it('search and fidelity count on the terminal while they read, then erase the count', async () => {
    const search = await runOnTerminal(['search', ...SMALL, 'the']);
    expect(search.raw).toMatch(/compactlab search: 1\/\d+ sessions/);
    expect(search.screen.some((l) => counted('search').test(l))).toBe(false);
    // Each session's first line starts at column 0: its file, then what it found.
    const found = search.screen.filter((l) => !l.startsWith('  ') && !/sessions? holds?/.test(l));
    expect(found.length).toBeGreaterThan(0);
    for (const l of found) expect(l.startsWith(FOREIGN), l.slice(0, 80)).toBe(true);

    const fidelity = await runOnTerminal(['fidelity', join(FOREIGN, 'brexp__infra')]);
    expect(fidelity.raw).toMatch(/compactlab fidelity: 1\/\d+ sessions/);
    expect(fidelity.screen[0]).toMatch(/^agent +version +sessions/);
  });
});
