import { join } from 'node:path';
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
