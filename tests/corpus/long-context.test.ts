import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { computeReplay } from '../../src/engine/replay/compute-replay';
import { prepareReplay } from '../../src/engine/replay/prepare';
import { CLAUDE_CODE_STRATEGY } from '../../src/engine/strategies/claude-code';
import { CLINE_STRATEGY } from '../../src/engine/strategies/cline';
import { getSessionInfo } from '../../src/engine/strategies/types';
import { addLiveLine, createLiveFigures } from '../../src/engine/live/live-figures';
import { computeLiveStatus } from '../../src/engine/live/live-status';
import { computeThresholds } from '../../src/engine/thresholds';
import { runReplay } from '../replay/run-replay';
import { corpusJsonl, corpusOrSkip } from '../helpers/corpus';

// The corpus's sessions whose context went past 200k (hannibal8856/claude_backup: main peaks of
// 586,660 and 678,975, subagents at 421k–426k) ran on a 1M window. At the log's own knobs the
// window must be inferred 1M, auto-compact must not be inferred off, and the replay must not
// "block" a context the API really accepted. Every other Claude Code session stays at 200k.
// The live status (`watch`, `statusline`) reads the same window by the same rule as the replay.

const present = corpusOrSkip('long-context corpus tests');

const DEFAULT_WINDOW = 200_000;

const listJsonl = corpusJsonl;

/** The largest input + cache creation + cache read of any assistant line, read without the engine. */
function rawPeak(path: string): number {
  let peak = 0;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line.includes('"usage"')) continue;
    try {
      const u = JSON.parse(line)?.message?.usage;
      if (!u) continue;
      peak = Math.max(
        peak,
        (u.input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0),
      );
    } catch {
      // Bad lines are the parser tests' business.
    }
  }
  return peak;
}

describe.skipIf(!present)('corpus: sessions past 200k', () => {
  const files = listJsonl().filter((f) => !/rollout-/.test(f));
  const long = files.filter((f) => rawPeak(f) > DEFAULT_WINDOW);

  it('has the 1M sessions it should (peaks 586,660 and 678,975)', () => {
    const peaks = long.map(rawPeak).sort((a, b) => a - b);
    expect(peaks).toContain(586_660);
    expect(peaks).toContain(678_975);
    expect(long.length).toBeGreaterThanOrEqual(4);
  });

  it.each(long.map((f) => [basename(f), f]))(
    '%s: window inferred 1M, no blocked event',
    async (_name, file) => {
      const session = await parseSession([createMemorySource(basename(file), readFileSync(file))]);
      const prepared = prepareReplay(session);
      const { knobs, notes } = CLAUDE_CODE_STRATEGY.getSessionKnobs(getSessionInfo(prepared));
      expect(knobs.contextWindow).toBe(1_000_000);
      expect(knobs.autoCompactEnabled).toBe(true);
      expect(notes.some((n) => n.startsWith('Window 1M'))).toBe(true);
      expect(notes.some((n) => n.startsWith('Auto-compact off'))).toBe(false);
      const { result } = runReplay(prepared, knobs);
      expect(result.events.filter((e) => e.kind === 'blocked')).toEqual([]);
    },
  );

  // Under Cline's rules the same sessions were "blocked" at Cline's 200,000 for the model, a
  // context the API had accepted: Cline offers their model (claude-opus-5, claude-opus-4-8) with 1M.
  it.each(long.map((f) => [basename(f), f]))(
    "%s: Cline's rules take its 1M model of the log's model, and nothing is blocked",
    async (_name, file) => {
      const session = await parseSession([createMemorySource(basename(file), readFileSync(file))]);
      const prepared = prepareReplay(session);
      const info = getSessionInfo(prepared);
      const { knobs, notes } = CLINE_STRATEGY.getSessionKnobs(info);
      expect(info.models.length).toBeGreaterThan(0);
      expect(knobs.contextWindow).toBe(1_000_000);
      expect(notes.some((n) => /Cline offers claude-opus-(5|4-8) with a 1M window/.test(n))).toBe(true);
      const result = computeReplay(prepared, 'cline', knobs);
      expect(result.events.filter((e) => e.kind === 'blocked')).toEqual([]);
    },
  );

  /** The live status of a whole file read line by line, as `watch --once` reads it. */
  function liveStatusOf(text: string) {
    const f = createLiveFigures();
    text.split('\n').forEach((line, i) => {
      addLiveLine(f, line, i + 1);
    });
    return computeLiveStatus(f);
  }

  /** The replay's window and auto-compact threshold at the log's own knobs. */
  function replayWindowOf(session: Awaited<ReturnType<typeof parseSession>>) {
    const { knobs } = CLAUDE_CODE_STRATEGY.getSessionKnobs(getSessionInfo(prepareReplay(session)));
    return { window: knobs.contextWindow, autoCompact: computeThresholds(knobs).autoCompact };
  }

  // The tester's case: watch said `ctx 679.7k/200k (340%) · compact at 167k` where replay said
  // "Window 1M: the log's context reached 678,975 tokens". Main files only: the live status
  // follows a main transcript (a subagent's lines are all sidechain).
  it.each(long.filter((f) => !f.includes('__subagents__')).map((f) => [basename(f), f]))(
    '%s: the live status infers the replay’s 1M window and threshold',
    async (_name, file) => {
      const text = readFileSync(file, 'utf8');
      const replay = replayWindowOf(await parseSession([createMemorySource(basename(file), text)]));
      expect(replay.window).toBe(1_000_000);
      const live = liveStatusOf(text);
      expect(live.contextWindowTokens).toBe(replay.window);
      expect(live.autoCompactTokens).toBe(replay.autoCompact);
    },
  );

  it('infers a 1M window live from auto-compactions past 200k (c76ab3a5, usage and preTokens ×4)', async () => {
    // The tester's synthetic file: a real 2.0.76 session that auto-compacts 3 times, its input
    // usage and compactMetadata.preTokens multiplied by 4 (peaks past 600k): one rule for both.
    const file = files.find((f) => f.includes('c76ab3a5-d2b2-4e46-b7c5-6f2a31a55eb0'))!;
    const scaled = readFileSync(file, 'utf8')
      .split('\n')
      .map((line) => {
        if (!line.includes('"usage"') && !line.includes('"preTokens"')) return line;
        const r = JSON.parse(line);
        const u = r.message?.usage;
        if (u)
          for (const k of ['input_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens'])
            if (typeof u[k] === 'number') u[k] *= 4;
        if (typeof r.compactMetadata?.preTokens === 'number') r.compactMetadata.preTokens *= 4;
        return JSON.stringify(r);
      })
      .join('\n');
    const replay = replayWindowOf(await parseSession([createMemorySource('scaled.jsonl', scaled)]));
    expect(replay.window).toBe(1_000_000);
    const live = liveStatusOf(scaled);
    expect(live).toMatchObject({ contextWindowTokens: replay.window, autoCompactTokens: replay.autoCompact });
  });

  it('keeps every other Claude Code session at the 200k default', async () => {
    let checked = 0;
    for (const file of files) {
      if (long.includes(file)) continue;
      const session = await parseSession([createMemorySource(basename(file), readFileSync(file))]);
      if (session.format !== 'claude-code' || session.apiCalls.length === 0) continue;
      const { knobs } = CLAUDE_CODE_STRATEGY.getSessionKnobs(getSessionInfo(prepareReplay(session)));
      expect(knobs.contextWindow, basename(file)).toBe(DEFAULT_WINDOW);
      if (!file.includes('__subagents__'))
        expect(liveStatusOf(readFileSync(file, 'utf8')).contextWindowTokens, basename(file)).toBe(
          DEFAULT_WINDOW,
        );
      checked++;
    }
    expect(checked).toBeGreaterThan(50);
  });
});
