import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CORPUS, corpusOrSkip } from '../helpers/corpus';
import { runCli } from '../helpers/run-cli';

// A count and its noun agree, as a reader of the guide's examples expects: `inspect` of a real
// Claude Code log with one note printed "Issues: 0 errors, 0 warnings, 1 notes", and the HTML
// report of a real Codex rollout whose replay compacts once said "(1 compactions)".

const CLAUDE = join(
  CORPUS,
  'LAF-US__IDAHO-VAULT/claude__projects__c--Users-loganf-Documents-IDAHO-VAULT__05541cb5-fe43-41c9-87ef-2a6d89bba271.jsonl',
);
const CODEX = join(
  CORPUS,
  'LAF-US__IDAHO-VAULT/codex__archived_sessions__rollout-2026-03-29T22-19-12-019d3cf7-965c-7fb0-8eca-afeca7fe7b00.jsonl',
);
const dir = mkdtempSync(join(tmpdir(), 'compactlab-counted-words-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const counted = (n: number, noun: string) => `${n} ${n === 1 ? noun : `${noun}s`}`;

describe.skipIf(!corpusOrSkip('counted words of inspect and report'))('a count and its noun', () => {
  it("inspect's issue line on a real log with one note", async () => {
    const json = JSON.parse((await runCli(['inspect', '--json', CLAUDE])).text) as {
      issues: { severity: string }[];
    };
    const by = (s: string) => json.issues.filter((i) => i.severity === s).length;
    expect(by('info'), 'the log holds one note').toBe(1);
    const line = (await runCli(['inspect', CLAUDE])).text.split('\n').find((l) => l.startsWith('Issues: '));
    expect(line).toBe(
      `Issues: ${counted(by('error'), 'error')}, ${counted(by('warning'), 'warning')}, ${counted(by('info'), 'note')}`,
    );
  });

  it("the report's replay line on a real rollout whose replay compacts once", async () => {
    const out = join(dir, 'report.html');
    await runCli(['report', CODEX, '-o', out]);
    const replay = JSON.parse((await runCli(['replay', '--json', CODEX])).text) as {
      events: { kind: string }[];
    };
    const compacts = replay.events.filter((e) => e.kind === 'compact').length;
    expect(compacts).toBe(1);
    expect(readFileSync(out, 'utf8')).toContain(
      `Orange: replay with Codex CLI (codex) (${counted(compacts, 'compaction')}).`,
    );
  });
});
