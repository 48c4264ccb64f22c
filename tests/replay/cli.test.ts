import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main';
import { STRATEGIES } from '../../src/engine/strategies/registry';
import { estimateTextTokens } from '../../src/engine/tokens/estimate';
import { buildTranscript, growingSpec } from './transcript-fixture';

describe('compactlab replay', () => {
  const dir = mkdtempSync(join(tmpdir(), 'compactlab-replay-'));
  const file = join(dir, 'session.jsonl');
  // 37 calls: 20,000 → 200,000 tokens, as far as a 200k window goes (past it, the window is inferred 1M).
  writeFileSync(file, `${buildTranscript(growingSpec(37)).join('\n')}\n`);
  const run = async (...args: string[]) => {
    const out: string[] = [];
    const code = await main(['replay', file, ...args], (t) => out.push(t));
    return { code, text: out.join('\n') };
  };

  it('prints one line per event and the comparison, under the log’s knobs or flags', async () => {
    // This log goes past the threshold without compacting: its own knobs say auto-compact was off.
    const log = await run();
    expect(log.code).toBe(0);
    expect(log.text).toMatch(/^note: Auto-compact off/m);
    expect(log.text).toMatch(/blocked: 200,000 ≥ 197,000/);
    const base = await run('--auto-compact');
    expect(base.text).toMatch(
      /^event 1 after API call \d+ \(main call \d+\) compact auto full: check [\d,]+ ≥ 167,000/m,
    );
    expect(base.text).toMatch(/^note: Threshold profile 2\.1\.21\+ \(v2\.1\.68\)/m);
    const wide = await run('--auto-compact', '--window', '1000000');
    expect(wide.text).not.toMatch(/compact auto/);
    const pct = await run('--auto-compact', '--pct', '50', '--no-microcompact');
    expect(pct.text).toMatch(/auto-compact 90,000/);
    const json = JSON.parse((await run('--auto-compact', '--json', '--max-output', '8192')).text);
    expect(json.thresholds[0]).toMatchObject({ id: 'auto-compact', tokens: 178_808 });
    expect(json.simulatedTokens).toHaveLength(37);
  });

  it('takes the session memory as a size or as a text file', async () => {
    const memory = join(dir, 'session-memory', 'summary.md');
    mkdirSync(join(dir, 'session-memory'), { recursive: true });
    writeFileSync(memory, `# Session memory\n${'- kept a fact about src/cli.ts\n'.repeat(400)}`);
    const tokens = estimateTextTokens(readFileSync(memory, 'utf8').length);
    const json = async (...args: string[]) =>
      JSON.parse((await run('--auto-compact', '--json', ...args)).text);
    const byText = (await json('--session-memory', memory)).events[0];
    expect(byText).toMatchObject({ mechanism: 'session-memory', summaryTokens: tokens });
    expect((await json('--session-memory', String(tokens))).events[0]).toMatchObject({
      summaryTokens: tokens,
    });
    // Given among the files, it is the session's own memory.
    const out: string[] = [];
    expect(await main(['replay', file, memory, '--auto-compact', '--json'], (t) => out.push(t))).toBe(0);
    expect(JSON.parse(out.join('\n')).events[0]).toMatchObject({ summaryTokens: tokens });
    expect((await run('--session-memory', join(dir, 'missing.md'))).code).toBe(2);
  });

  it('rejects bad flags', async () => {
    expect((await run('--window', 'abc')).code).toBe(2);
    expect((await run('--summary-model', 'magic')).code).toBe(2);
    expect((await run('--profile', 'v9')).code).toBe(2);
    expect((await run('--knob', 'noSuchKnob=1')).code).toBe(2);
    expect((await run('--knob', 'contextWindow')).code).toBe(2);
    expect((await run('--knob', 'autoCompactEnabled=yes')).code).toBe(2);
    // A flag of another strategy's knob is not one of this strategy's.
    expect((await run('--strategy', 'codex', '--keep-recent', '2')).code).toBe(2);
  });

  it('sets any knob with --knob key=value, the same as its named flag', async () => {
    const json = async (...args: string[]) => JSON.parse((await run('--json', ...args)).text);
    const named = await json('--auto-compact', '--pct', '50', '--no-microcompact');
    const byKey = await json(
      '--knob',
      'autoCompactEnabled=true',
      '--knob',
      'autocompactPctOverride=50',
      '--knob',
      'microcompactEnabled=false',
    );
    expect(byKey.events).toEqual(named.events);
    expect(byKey.knobs).toEqual(named.knobs);
    expect(byKey.knobs).toMatchObject({ autocompactPctOverride: 50, microcompactEnabled: false });
    // `--no-compact` names the opposite of its knob; `--knob` clears an optional one with nothing.
    expect((await json('--no-compact')).knobs.disableCompact).toBe(true);
    expect((await json('--pct', '50', '--knob', 'autocompactPctOverride=')).knobs).not.toHaveProperty(
      'autocompactPctOverride',
    );
    expect((await json('--knob', 'microcompactTools=Read, Bash')).knobs.microcompactTools).toEqual([
      'Read',
      'Bash',
    ]);
  });

  it('lists the strategies, and a strategy’s knobs from its specs', async () => {
    const out: string[] = [];
    expect(await main(['replay', '--strategies'], (t) => out.push(t))).toBe(0);
    const lines = out.join('\n').split('\n');
    expect(lines).toEqual(STRATEGIES.map((s) => `${s.id}  ${s.label}`));
    for (const strategy of STRATEGIES) {
      const help: string[] = [];
      expect(await main(['replay', '--strategy', strategy.id, '--help'], (t) => help.push(t))).toBe(0);
      const text = help.join('\n');
      for (const spec of strategy.knobSpecs) {
        expect(text).toContain(`--knob ${spec.key}=`);
        expect(text).toContain(spec.label);
        expect(text).toContain(`source: ${spec.source}`);
        if (spec.cliFlag)
          expect(text).toContain(spec.kind === 'boolean' ? `--[no-]${spec.cliFlag}` : `--${spec.cliFlag} `);
      }
    }
    const help: string[] = [];
    await main(['replay', '--strategy', 'claude-code', '--help'], (t) => help.push(t));
    expect(help.join('\n')).toMatch(
      /--window N, --knob contextWindow=N\n\s+Context window \(tokens\): default 200,000, 10,000–2,000,000/,
    );
  });
});
