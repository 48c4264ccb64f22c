import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createNodeFileSource } from '../../src/cli/node-source';
import { parseSession } from '../../src/engine/parse/parse-session';
import { computeReplay } from '../../src/engine/replay/compute-replay';
import { prepareReplay } from '../../src/engine/replay/prepare';
import { hasRequestAfterLastCall } from '../../src/engine/simulation/turns';
import { getDefaultStrategyId } from '../../src/engine/strategies/descriptors';
import { getStrategy } from '../../src/engine/strategies/registry';
import { getSessionInfo } from '../../src/engine/strategies/types';
import { REAL_LOGS } from '../helpers/corpus';
import { parseFixture } from './transcript-fixture';
import { runReplay } from './run-replay';

// An agent checks its compaction before it sends a request, whether or not the request then
// yields a call the log records. Real Claude Code 2.1.111 sessions (LAF-US/IDAHO-VAULT) start at
// ~176,000 tokens, answer once, and compact before the next prompt, whose request then comes back
// "Prompt is too long" (a synthetic answer, no call): the compaction follows the log's last call.
// The replay stepped after every call but the last, and missed all four such compactions.

const IDAHO = join(REAL_LOGS, 'LAF-US__IDAHO-VAULT/.claude/projects/c--Users-loganf-Documents-IDAHO-VAULT');
const AFTER_LAST_CALL = [
  '4e1f519b-0c87-4b0b-9f45-bdf046f7c96f.jsonl',
  '7bcc5db5-abd5-4451-a4ac-7c7afe38fddb.jsonl',
  'e469d94d-bde2-46d5-8c57-1303119815ec.jsonl',
  '5c04fe06-649f-4946-8625-2a3482121664.jsonl',
  '675b2557-7e98-4a6c-9795-be2262cc9825/subagents/agent-a42f631356ab5a95c.jsonl',
];

const prompt = (text: string) => ({ type: 'user', message: { role: 'user', content: text } });

describe('a compaction after the log’s last call', () => {
  it('is made when a prompt follows the last call, and only then', async () => {
    const calls = [{ prompt: 'Load the vault.', context: 176_000, output: 300 }];
    const withPrompt = await parseFixture({
      version: '2.1.111',
      calls: [{ ...calls[0]!, after: [prompt('Check the dependencies.')] }],
    });
    const prepared = prepareReplay(withPrompt.session);
    expect(hasRequestAfterLastCall(prepared)).toBe(true);
    const { result } = runReplay(prepared);
    expect(result.events.map((e) => [e.kind, e.afterCallPos])).toEqual([['compact', 0]]);

    const alone = prepareReplay((await parseFixture({ version: '2.1.111', calls })).session);
    expect(hasRequestAfterLastCall(alone)).toBe(false);
    expect(runReplay(alone).result.events).toEqual([]);
  });

  it('is made when the last call’s tool results wait to be sent', async () => {
    const { session } = await parseFixture({
      version: '2.1.111',
      calls: [
        { prompt: 'Explore.', context: 175_000, output: 120, tools: [{ name: 'Bash', resultChars: 400 }] },
      ],
    });
    const prepared = prepareReplay(session);
    expect(hasRequestAfterLastCall(prepared)).toBe(true);
    expect(runReplay(prepared).result.events.map((e) => e.kind)).toEqual(['compact']);
  });

  const present = AFTER_LAST_CALL.every((f) => existsSync(join(IDAHO, f)));
  if (!present)
    console.warn('request-after-last-call: real logs absent, run node scripts/restore-real-logs.mjs');
  it.skipIf(!present)('reproduces the real compactions after the last call at their call', async () => {
    for (const file of AFTER_LAST_CALL) {
      const session = await parseSession([createNodeFileSource(join(IDAHO, file))]);
      const prepared = prepareReplay(session);
      const id = getDefaultStrategyId(session.format, session.meta.agent);
      const { knobs } = getStrategy(id).getSessionKnobs(getSessionInfo(prepared));
      const { comparison } = computeReplay(prepared, id, knobs);
      const last = prepared.real[prepared.real.length - 1]!;
      expect(last.afterCall, file).toBe(prepared.calls.length - 1);
      expect(comparison.counts, file).toMatchObject({ matched: comparison.expected, missing: 0, extra: 0 });
    }
  });
});
