import { describe, expect, it } from 'vitest';
import { getSummaryRequestOverheadTokens } from '../../src/engine/compact/build-request';
import { formatReplayDump } from '../../src/engine/replay/dump';
import { DEFAULT_CLAUDE_CODE_KNOBS } from '../../src/engine/strategies/claude-code/knobs';
import { computeThresholds } from '../../src/engine/thresholds';
import { runReplay } from './run-replay';
import { growingSpec, parseFixture } from './transcript-fixture';

// The failure paths of claude-code-compaction-v2.1.68.txt "Edge cases" (and compact-system.md
// "Failure Telemetry", "Threshold Exceeded"), each a replay event with its reason.

const read = (k: number, tokens: number) => ({
  name: 'Read',
  path: `/work/demo/src/f${k}.ts`,
  resultChars: tokens * 4,
});

describe('a summary request over the window: prompt too long (edge cases 4 and 5)', async () => {
  // Replayed in a 100k window, the log's 130k call is over it: the history to summarize alone is
  // more than the summarizer can take.
  const contexts = [20_000, 40_000, 60_000, 130_000, 135_000, 140_000];
  const { session } = await parseFixture({
    calls: contexts.map((context, k) => ({
      prompt: k === 0 ? 'Build the thing.' : undefined,
      context,
      output: 100,
      tools: [read(k, k + 1 < contexts.length ? contexts[k + 1]! - context - 200 : 1_000)],
    })),
  });
  const knobs = { contextWindow: 100_000, maxOutputTokens: 20_000 };
  const t = computeThresholds({ ...DEFAULT_CLAUDE_CODE_KNOBS, ...knobs });

  it('auto-compact fails, the history stays, and each later call retries: one event for the run', () => {
    const { prepared, result } = runReplay(session, knobs);
    const failed = result.events.filter((e) => e.kind === 'compact-failed');
    expect(failed).toHaveLength(1);
    const [f] = failed;
    // Call 3's check counts the 70k result that follows it; the request carries it too: 40k of
    // history since the system prompt, that result and the prompt are over the 100k window.
    expect(f).toMatchObject({
      failure: 'prompt-too-long',
      trigger: 'auto',
      mechanism: 'full',
      afterCallPos: 2,
    });
    expect(f!.requestTokens).toBeGreaterThan(t.contextWindow);
    expect(f!.limitTokens).toBe(t.contextWindow);
    // Calls 3 to 6 try (the last call's result waits to be sent: a request follows it too).
    expect(f!.attempts).toBe(4);
    expect(f!.note).toMatch(/prompt too long.*trying again after each call/);
    // Nothing was compacted: the simulated context is the log's.
    expect(Array.from(result.simulatedTokens)).toEqual(Array.from(prepared.recorded));
    expect(result.events.some((e) => e.kind === 'compact')).toBe(false);
    const dump = formatReplayDump(prepared, result);
    expect(dump).toMatch(/compact auto full failed \(prompt-too-long\): request [\d,]+ > 100,000/);
    expect(dump).toMatch(/4 calls in a row, history unchanged/);
  });

  it('the context at the blocking limit is refused: its own event, with its reason', () => {
    const { result } = runReplay(session, knobs);
    const blocked = result.events.find((e) => e.kind === 'blocked');
    expect(blocked).toMatchObject({ failure: 'blocking-limit', afterCallPos: 3 });
    expect(blocked!.preTokens).toBeGreaterThanOrEqual(t.blocking);
  });

  it('a manual /compact of too long a history fails the same way, with its own message', () => {
    const { result } = runReplay(
      session,
      { ...knobs, autoCompactEnabled: false },
      { manual: [{ afterApiCall: prepared(session).calls[4]!, mechanism: 'full' }] },
    );
    const [f] = result.events.filter((e) => e.kind === 'compact-failed');
    expect(f).toMatchObject({ trigger: 'manual', failure: 'prompt-too-long', attempts: 1 });
    expect(f!.note).toMatch(/context too large to compact/);
  });

  it('the request counts the prompt and system prompt beside the history', () => {
    expect(getSummaryRequestOverheadTokens('full')).toBeGreaterThan(500);
    expect(getSummaryRequestOverheadTokens('full', 'x'.repeat(4_000))).toBeGreaterThan(
      getSummaryRequestOverheadTokens('full') + 900,
    );
  });
});

describe('a compaction that leaves the context over the threshold', async () => {
  // At 10% of the window the threshold (~18k) is under the system prompt and tools (~20k): no
  // summary can bring the context under it.
  const { session } = await parseFixture(growingSpec(12));

  it('says so, and the next call compacts again, summarizing the summary with what follows', () => {
    // The rapid-refill breaker off: it would refuse the third in a row (cc-refill-breaker.test.ts).
    const { result } = runReplay(session, { autocompactPctOverride: 10, rapidRefillBreaker: false });
    const compactions = result.events.filter((e) => e.kind === 'compact');
    expect(compactions.length).toBeGreaterThan(3);
    for (const e of compactions) {
      expect(e.failure).toBe('over-threshold');
      expect(e.postTokens).toBeGreaterThanOrEqual(e.thresholdTokens);
      expect(e.note).toMatch(/not under the .* threshold.*strategy's next check fires again/);
    }
    // One after every call: each call's check is over the threshold again.
    const calls = compactions.map((e) => e.afterCallPos);
    expect(calls).toEqual(calls.map((_, i) => calls[0]! + i));
    // The next one's span holds the previous summary (summary chaining).
    const [first, second] = compactions;
    expect(second!.spanTokens!).toBeGreaterThan(first!.summaryTokens!);
  });
});

function prepared(session: Parameters<typeof runReplay>[0]) {
  return runReplay(session, { autoCompactEnabled: false }).prepared;
}
