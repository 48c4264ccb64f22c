import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { prepareReplay } from '../../src/engine/replay/prepare';
import { CLAUDE_CODE_STRATEGY } from '../../src/engine/strategies/claude-code';
import { getSessionInfo } from '../../src/engine/strategies/types';
import { runReplay } from '../replay/run-replay';
import { corpusJsonl, corpusOrSkip } from '../helpers/corpus';

// The corpus's sessions whose context went past 200k (hannibal8856/claude_backup: main peaks of
// 586,660 and 678,975, subagents at 421k–426k) ran on a 1M window. At the log's own knobs the
// window must be inferred 1M, auto-compact must not be inferred off, and the replay must not
// "block" a context the API really accepted. Every other Claude Code session stays at 200k.

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

  it('keeps every other Claude Code session at the 200k default', async () => {
    let checked = 0;
    for (const file of files) {
      if (long.includes(file)) continue;
      const session = await parseSession([createMemorySource(basename(file), readFileSync(file))]);
      if (session.format !== 'claude-code' || session.apiCalls.length === 0) continue;
      const { knobs } = CLAUDE_CODE_STRATEGY.getSessionKnobs(getSessionInfo(prepareReplay(session)));
      expect(knobs.contextWindow, basename(file)).toBe(DEFAULT_WINDOW);
      checked++;
    }
    expect(checked).toBeGreaterThan(50);
  });
});
