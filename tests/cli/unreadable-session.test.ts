import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CORPUS, corpusOrSkip } from '../helpers/corpus';
import { runCli } from '../helpers/run-cli';

// `compactlab report` on a UTF-16 file said "nothing could be read as a transcript" while
// `inspect` named the file as UTF-16 with the iconv line that converts it (the parse's own issue,
// engine parse/file-parse.ts); export and erosion said the same as report, summarize "No API call
// 1". Every command that opens a session now gives the parse's reason (cli/session-files.ts,
// describeNothingRead). The file is a real session's first lines re-encoded as Windows tools
// write text: UTF-16 with a byte-order mark.

const REAL = join(
  CORPUS,
  'LAF-US__IDAHO-VAULT/claude__projects__c--Users-loganf-Documents-IDAHO-VAULT__b2b82754-6b66-414f-a275-d7370efaf6ad.jsonl',
);
const dir = mkdtempSync(join(tmpdir(), 'compactlab-unreadable-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `text` as UTF-16 little-endian with its BOM (FF FE), or big-endian (FE FF). */
function utf16(text: string, endian: 'le' | 'be'): Buffer {
  const le = Buffer.from(text, 'utf16le');
  if (endian === 'le') return Buffer.concat([Buffer.from([0xff, 0xfe]), le]);
  return Buffer.concat([Buffer.from([0xfe, 0xff]), le.swap16()]);
}

/** Each command that opens one session, with what it needs besides the file. */
const commands = (file: string): [string, string[]][] => [
  ['inspect', [file]],
  ['replay', [file]],
  ['summarize', [file, '--at', '1']],
  ['report', [file, '-o', join(dir, 'report.html')]],
  ['export', [file, '--md', '-o', join(dir, 'summaries.md')]],
  ['export', [file, '--jsonl', '-o', join(dir, 'compacted.jsonl')]],
  ['erosion', [file]],
  ['bash-summaries', [file]],
];

describe.skipIf(!corpusOrSkip('a UTF-16 session given to every command'))('a UTF-16 session file', () => {
  const lines = readFileSync(REAL, 'utf8').split('\n').slice(0, 20).join('\n');

  it('is a real session when UTF-8', async () => {
    const plain = join(dir, 'plain.jsonl');
    writeFileSync(plain, `${lines}\n`);
    const json = JSON.parse((await runCli(['inspect', '--json', plain])).text);
    expect(json.apiCalls.length).toBeGreaterThan(0);
  });

  for (const [endian, label] of [
    ['le', 'little-endian'],
    ['be', 'big-endian'],
  ] as const) {
    it(`every command names it as UTF-16 (${label}) with the iconv hint, as inspect does`, async () => {
      const file = join(dir, `session-${endian}.jsonl`);
      writeFileSync(file, utf16(`${lines}\n`, endian));
      const reason = `session-${endian}.jsonl is UTF-16 (${label}) text; transcripts are UTF-8 JSON lines: convert it first (iconv -f UTF-16 -t UTF-8)`;
      // inspect's own issue list says it: the reason every command gives is that issue.
      const report = JSON.parse((await runCli(['inspect', '--json', file])).text);
      expect(report.issues.map((i: { message: string }) => i.message)).toContain(reason);
      for (const [command, args] of commands(file)) {
        const run = await runCli([command, ...args]);
        expect(run.code, `${command} ${args.join(' ')}`).toBe(1);
        const prefix = command === 'bash-summaries' ? `no record read from ${file}: ` : '';
        expect(run.err, `${command} ${args.join(' ')}`).toBe(`compactlab ${command}: ${prefix}${reason}\n`);
      }
      // Nothing was written for a file that could not be read.
      expect(existsSync(join(dir, 'report.html'))).toBe(false);
    });
  }
});
