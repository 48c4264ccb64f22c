import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main';

// Without --strategy, `compactlab replay` runs the log's own agent's strategy (as the app opens
// it): a pi log replays under pi, a Claude Code log under claude-code; --strategy still decides.

const FIXTURES = join(__dirname, '../fixtures/agents');
const PI_LOG = join(FIXTURES, '2026-03-09T12-00-00-000Z_7d3f0a52-6c1e-4b8a-9f27-3e5d1c0b8a64.jsonl');
const CLAUDE_LOG = join(__dirname, '../fixtures/tiny.jsonl');

async function run(
  ...args: string[]
): Promise<{ code: number; json: { strategyId: string; knobs: Record<string, unknown> } }> {
  const out: string[] = [];
  const code = await main(['replay', ...args, '--json'], (t) => out.push(t));
  return { code, json: JSON.parse(out.join('\n')) };
}

describe('compactlab replay: the default strategy', () => {
  it('is pi on a pi log and claude-code on a Claude Code log', async () => {
    expect((await run(PI_LOG)).json.strategyId).toBe('pi');
    expect((await run(CLAUDE_LOG)).json.strategyId).toBe('claude-code');
  });

  it('takes the log strategy’s own flags, and --strategy overrides it', async () => {
    const own = await run(PI_LOG, '--knob', 'reserveTokens=20000');
    expect(own.code).toBe(0);
    expect(own.json.knobs.reserveTokens).toBe(20000);
    // A knob flag's value is not taken for a file.
    const claude = await run('--window', '150000', CLAUDE_LOG);
    expect(claude.json.strategyId).toBe('claude-code');
    expect(claude.json.knobs.contextWindow).toBe(150000);
    expect((await run(PI_LOG, '--strategy', 'codex')).json.strategyId).toBe('codex');
  });
});

describe('compactlab replay: a log on a model without a list price', () => {
  it('says there is no price instead of "cost $0.000 (real $0.000, +$0.000)"', async () => {
    // A real pi session on a free model (alhajjemohammad44-stack/93-coffee-shop,
    // deepseek-v4-flash-free through OpenCode's provider): every call unpriced.
    const dir = mkdtempSync(join(tmpdir(), 'compactlab-unpriced-'));
    const file = join(dir, basename(PI_LOG));
    writeFileSync(
      file,
      readFileSync(PI_LOG, 'utf8').replaceAll('"claude-sonnet-4-5"', '"free-model-without-price"'),
    );
    const text = async (path: string) => {
      const out: string[] = [];
      expect(await main(['replay', path], (t) => out.push(t))).toBe(0);
      return out
        .join('\n')
        .split('\n')
        .find((l) => l.startsWith('cost'))!;
    };
    const unpriced = await text(file);
    expect(unpriced).toMatch(/^cost: no list price for the log's \d+ calls · cache read\/write\/uncached /);
    expect(unpriced).not.toContain('$');
    // A priced log keeps its dollars.
    expect(await text(PI_LOG)).toMatch(/^cost \$[\d.]+ \(real \$[\d.]+/);
  });
});
