import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { prepareReplay } from '../../src/engine/replay/prepare';
import { formatTokenProvenance, sumTokenProvenance } from '../../src/engine/replay/provenance';
import type { ReplayResult } from '../../src/engine/replay/types';
import { CLAUDE_CODE_STRATEGY } from '../../src/engine/strategies/claude-code';
import type { ClaudeCodeKnobs } from '../../src/engine/strategies/claude-code/knobs';
import { getSessionInfo } from '../../src/engine/strategies/types';
import type { Session } from '../../src/engine/types';
import { generateSession } from '../../src/sample/generate-session';
import { runReplay } from './run-replay';

// Every event's before / after breakdown sums to the figure it explains ("State how each figure
// was obtained"), under the log's knobs and knobs that make the replay diverge.

const ROOT = resolve(__dirname, '../..');
const TOLERANCE_TOKENS = 1e-6;

const KNOB_VARIANTS: Partial<ClaudeCodeKnobs>[] = [
  {},
  { autocompactPctOverride: 50 },
  { autocompactPctOverride: 60, microcompactEnabled: true, microcompactVariant: 'v2.1.68' },
  { contextWindow: 120_000 },
];

function replays(session: Session): ReplayResult[] {
  const prepared = prepareReplay(session);
  const { knobs } = CLAUDE_CODE_STRATEGY.getSessionKnobs(getSessionInfo(prepared));
  return KNOB_VARIANTS.map((v) => runReplay(prepared, { ...knobs, ...v }).result);
}

function expectSums(results: ReplayResult[]): void {
  let events = 0;
  let attributed = 0;
  for (const result of results) {
    for (const [i, e] of result.events.entries()) {
      const at = `event #${i} (${e.kind} after call ${e.afterCallPos})`;
      expect(Math.abs(sumTokenProvenance(e.preSource) - e.preTokens), `${at} before`).toBeLessThan(
        TOLERANCE_TOKENS,
      );
      expect(Math.abs(sumTokenProvenance(e.postSource) - e.postTokens), `${at} after`).toBeLessThan(
        TOLERANCE_TOKENS,
      );
      // A recorded figure is the call's own usage: no per-message parts.
      if (e.preSource.kind === 'recorded') {
        expect(e.preSource.usageTokens).toBe(result.recordedTokens[e.afterCallPos]);
        expect(e.preSource.exactTokens + e.preSource.splitTokens + e.preSource.estimatedTokens).toBe(0);
      }
      expect(e.preSource.kind).toBe(result.diverged[e.afterCallPos] ? 'attributed' : 'recorded');
      expect(formatTokenProvenance(e.postSource)).not.toBe('');
      events++;
      if (e.preSource.kind === 'attributed') attributed++;
    }
  }
  expect(events).toBeGreaterThan(0);
  expect(attributed).toBeGreaterThan(0);
}

describe('replay provenance', () => {
  it('sums to each figure on the bundled sample', async () => {
    const index = JSON.parse(readFileSync(join(ROOT, 'public/samples/index.json'), 'utf8'));
    const files: string[] = index.files.map((f: { path: string }) => `public/samples/${f.path}`);
    const session = await parseSession(
      files.map((f) => createMemorySource(f.split('/').pop()!, readFileSync(join(ROOT, f)))),
    );
    expectSums(replays(session));
  });

  it('sums to each figure on a generated session', async () => {
    const g = generateSession({ seed: 7, apiCalls: 600 });
    const session = await parseSession(g.files.map((f) => createMemorySource(f.name, f.text)));
    expectSums(replays(session));
  });
});
