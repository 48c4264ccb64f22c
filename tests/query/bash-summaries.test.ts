import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import {
  BASH_SUMMARY_THRESHOLD_CHARS,
  type BashSummaries,
  computeBashSummaries,
  judgeLogSpew,
} from '../../src/engine/query/bash-summaries';
import { estimateTextTokens } from '../../src/engine/tokens/estimate';

// Bash-output summarization (claude-code-summarization-architecture.md §4): which shell results
// over 5,000 characters it catches, our log-spew judgement and the tokens saved; on generated
// sessions with long outputs, on the corpus, and through the CLI.

const CORPUS = resolve(__dirname, '../../../shared/corpus');

const BUILD_LOG = Array.from(
  { length: 300 },
  (_, i) => `[${i + 1}/300] Compiling crate_${i} v0.${i}.0 (/work/crates/crate_${i})`,
).join('\n');
const TEST_LOG = Array.from({ length: 200 }, (_, i) => `PASS src/module${i}.test.ts (${i}ms)`).join('\n');
// Unique content: prose lines that neither repeat (digits masked) nor look like a runner's or a logger's.
const letters = (i: number) => String.fromCharCode(97 + (i % 26), 97 + ((i / 26) | 0));
const UNIQUE = Array.from(
  { length: 120 },
  (_, i) =>
    `Paragraph ${letters(i)} talks about the ${letters(i * 7)} design of the ${letters(i * 11)} module in depth`,
).join('\n');

/** A Claude Code session: a prompt, then one tool call and its result per output. */
function claudeSession(
  outputs: { name: string; command?: string; text: string; isError?: boolean }[],
): string {
  const lines: string[] = [];
  let parent: string | null = null;
  let n = 0;
  const push = (type: 'user' | 'assistant', content: unknown) => {
    const uuid = `u${++n}`;
    lines.push(
      JSON.stringify({
        parentUuid: parent,
        isSidechain: false,
        type,
        sessionId: 's',
        version: '2.1.68',
        uuid,
        timestamp: new Date(Date.UTC(2026, 0, 1, 9, 0, n)).toISOString(),
        message:
          type === 'assistant'
            ? {
                id: `m${n}`,
                role: 'assistant',
                model: 'claude-test',
                content,
                usage: { input_tokens: 10, output_tokens: 5 },
              }
            : { role: 'user', content },
      }),
    );
    parent = uuid;
  };
  push('user', 'Build and test.');
  outputs.forEach((o, i) => {
    push('assistant', [
      {
        type: 'tool_use',
        id: `t${i}`,
        name: o.name,
        input: { command: o.command ?? 'make', file_path: '/a' },
      },
    ]);
    push('user', [
      { type: 'tool_result', tool_use_id: `t${i}`, content: o.text, is_error: o.isError ?? false },
    ]);
  });
  return `${lines.join('\n')}\n`;
}

async function summariesOf(name: string, text: string): Promise<BashSummaries> {
  return computeBashSummaries(await parseSession([createMemorySource(name, text)]));
}

describe('bash-output summaries (§4)', () => {
  it('catches shell results over 5,000 characters, judges spew, and sums the tokens saved', async () => {
    const r = await summariesOf(
      'session.jsonl',
      claudeSession([
        { name: 'Bash', command: 'cargo build', text: BUILD_LOG },
        { name: 'Bash', command: 'npm test', text: TEST_LOG },
        { name: 'Bash', command: 'cat notes.md', text: UNIQUE },
        { name: 'Bash', command: 'ls', text: 'a\nb\n'.repeat(100) },
        // Not a shell tool: never caught, however long.
        { name: 'Read', text: BUILD_LOG },
      ]),
    );
    expect(r.shellTools).toEqual(['Bash']);
    expect(r.shellResults).toBe(4);
    expect(r.rows.map((row) => row.command)).toEqual(['cargo build', 'npm test', 'cat notes.md']);
    for (const row of r.rows) {
      expect(row.chars).toBeGreaterThan(BASH_SUMMARY_THRESHOLD_CHARS);
      expect(row.resultTokens).toBe(estimateTextTokens(row.chars));
    }
    const [build, test, unique] = r.rows;
    expect(build!.judgement).toBe('log-spew');
    expect(build!.reasons).toContain('build-test');
    expect(build!.reasons).toContain('repetitive');
    expect(test!.judgement).toBe('log-spew');
    expect(unique!.judgement).toBe('unique');
    expect(unique!.savedTokens).toBe(0);
    for (const row of [build!, test!]) {
      expect(row.summaryTokens).toBeGreaterThan(0);
      expect(row.savedTokens).toBe(row.resultTokens - row.summaryTokens);
      expect(row.savedTokens).toBeGreaterThan(0);
    }
    expect(r.spewCount).toBe(2);
    expect(r.totalSavedTokens).toBe(build!.savedTokens + test!.savedTokens);
    expect(r.totalResultTokens).toBe(r.rows.reduce((a, row) => a + row.resultTokens, 0));
  });

  it('judges log lines and counts error lines', () => {
    const log = Array.from(
      { length: 20 },
      (_, i) => `2026-01-01 09:00:${String(i).padStart(2, '0')} INFO worker ${i} ready`,
    );
    log.push('2026-01-01 09:01:00 ERROR worker 3 failed');
    const j = judgeLogSpew(log.join('\n'));
    expect(j.reasons).toContain('log-lines');
    expect(j.errorLines).toHaveLength(1);
    expect(judgeLogSpew(UNIQUE).reasons).toEqual([]);
  });

  it("uses the dialect's shell tools: Codex's shell calls", async () => {
    const at = (s: number) => new Date(Date.UTC(2026, 4, 1, 9, 0, s)).toISOString();
    const item = (s: number, payload: unknown) =>
      JSON.stringify({ timestamp: at(s), type: 'response_item', payload });
    const lines = [
      JSON.stringify({
        timestamp: at(0),
        type: 'session_meta',
        payload: { id: 's', cwd: '/w', originator: 'codex_cli_rs', cli_version: '0.120.0' },
      }),
      item(1, { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Build it.' }] }),
      item(2, {
        type: 'function_call',
        name: 'shell',
        arguments: '{"command":["cargo","build"]}',
        call_id: 'c1',
      }),
      item(3, { type: 'function_call_output', call_id: 'c1', output: BUILD_LOG }),
      item(4, { type: 'function_call', name: 'Bash', arguments: '{"command":"x"}', call_id: 'c2' }),
      item(5, { type: 'function_call_output', call_id: 'c2', output: BUILD_LOG }),
    ];
    const r = await summariesOf('rollout-2026-05-01T09-00-00-x.jsonl', `${lines.join('\n')}\n`);
    expect(r.shellTools).toContain('shell');
    expect(r.rows.map((row) => [row.toolName, row.command])).toEqual([['shell', 'cargo build']]);
    expect(r.rows[0]!.judgement).toBe('log-spew');
  });

  it('compactlab bash-summaries prints the list and the total, or JSON', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'compactlab-bash-'));
    const file = join(dir, 'session.jsonl');
    writeFileSync(file, claudeSession([{ name: 'Bash', command: 'cargo build', text: BUILD_LOG }]));
    const out: string[] = [];
    expect(await main(['bash-summaries', file], (t) => out.push(t))).toBe(0);
    const text = out.join('\n');
    expect(text).toMatch(/1 of 1 shell results \(Bash\) over 5,000 characters; 1 judged log spew/);
    expect(text).toMatch(
      /entry \d+ {2}Bash {2}[\d,]+ chars .* log-spew \(.*build-test.*\) {2}saved [\d,]+ {2}\$ cargo build/,
    );
    expect(text).toMatch(/^Total: [\d,]+ tokens of long shell output, [\d,]+ saved/m);
    const json: string[] = [];
    expect(await main(['bash-summaries', file, '--json'], (t) => json.push(t))).toBe(0);
    const parsed = JSON.parse(json.join('\n')) as BashSummaries;
    expect(parsed.rows).toHaveLength(1);
    expect(parsed.totalSavedTokens).toBe(parsed.rows[0]!.savedTokens);
    const usage: string[] = [];
    expect(await main(['bash-summaries'], (t) => usage.push(t))).toBe(2);
    expect(usage.join('\n')).toContain('compactlab bash-summaries <session.jsonl>');
  });
});

function corpusFiles(): string[] {
  if (!existsSync(CORPUS)) return [];
  const out: string[] = [];
  for (const dir of readdirSync(CORPUS, { withFileTypes: true })) {
    if (!dir.isDirectory()) continue;
    for (const f of readdirSync(join(CORPUS, dir.name)))
      if (f.endsWith('.jsonl') && /rollout-|claude__projects__/.test(f)) out.push(join(CORPUS, dir.name, f));
  }
  return out.sort();
}

const corpus = corpusFiles();
describe.skipIf(corpus.length === 0)('bash-output summaries on the corpus', () => {
  it('every caught result is a shell result over the threshold; totals add up; both dialects have some', async () => {
    const formats = new Set<string>();
    let caught = 0;
    for (const file of corpus) {
      const session = await parseSession([createMemorySource(basename(file), readFileSync(file))]);
      const r = computeBashSummaries(session);
      for (const row of r.rows) {
        expect(r.shellTools, basename(file)).toContain(row.toolName);
        expect(row.chars).toBeGreaterThan(BASH_SUMMARY_THRESHOLD_CHARS);
        expect(row.savedTokens).toBeGreaterThanOrEqual(0);
        expect(row.savedTokens).toBeLessThanOrEqual(row.resultTokens);
        expect(row.judgement === 'log-spew').toBe(row.reasons.length > 0);
      }
      expect(r.totalSavedTokens).toBe(r.rows.reduce((a, row) => a + row.savedTokens, 0));
      if (r.rows.length > 0) formats.add(session.format);
      caught += r.rows.length;
    }
    expect(formats).toEqual(new Set(['claude-code', 'codex-cli']));
    expect(caught).toBeGreaterThan(50);
  }, 120_000);
});
if (corpus.length === 0)
  describe.skip('bash-output summaries on the corpus — ../shared/corpus is absent', () => it('skipped'));
