import { describe, expect, it } from 'vitest';
import { type ParseProgress, parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { mergeProgress, throttleProgress } from '../../src/worker/progress-throttle';
import { generateSession } from '../../sample/generate-session';

// The load's progress reaches the page at most five times a second: fewer renders on the main
// thread while the worker parses, and the preview's calls arrive whole whatever was merged.

describe('throttled load progress', () => {
  it('sends the first at once, merges what comes within the interval, sends it when the interval is up', () => {
    let clock = 0;
    const timers: { at: number; run: () => void }[] = [];
    const sent: ParseProgress[] = [];
    const t = throttleProgress(
      (p) => sent.push(p),
      200,
      () => clock,
      (run, ms) => timers.push({ at: clock + ms, run }),
    );
    const at = (bytesRead: number, from: number, tokens: number[]): ParseProgress => ({
      bytesRead,
      totalBytes: 100,
      fileIndex: 0,
      calls: from + tokens.length,
      contexts: { from, tokens },
    });
    t.report(at(10, 0, [1, 2]));
    expect(sent.map((p) => p.bytesRead)).toEqual([10]);
    clock = 50;
    t.report(at(20, 1, [3, 4]));
    clock = 120;
    t.report(at(30, 3, [5]));
    expect(sent).toHaveLength(1);
    expect(timers).toHaveLength(1);
    clock = timers[0]!.at;
    timers[0]!.run();
    expect(sent.map((p) => p.bytesRead)).toEqual([10, 30]);
    // The merged report carries every call after the first report's last one, updated (from 1).
    expect(sent[1]!.contexts).toEqual({ from: 1, tokens: [3, 4, 5] });
    clock = 500;
    t.report(at(40, 4, [6]));
    expect(sent).toHaveLength(3);
    clock = 510;
    t.report(at(50, 5, [7]));
    t.drop();
    timers.at(-1)!.run();
    expect(sent).toHaveLength(3);
  });

  it('a parse reported through it draws the same series as every report would', async () => {
    const text = generateSession({ seed: 5, apiCalls: 400 }).files[0]!.text;
    const all: number[] = [];
    const merged: number[] = [];
    const apply = (series: number[], p: ParseProgress) => {
      if (p.contexts) series.splice(p.contexts.from, series.length - p.contexts.from, ...p.contexts.tokens);
    };
    let clock = 0;
    const timers: (() => void)[] = [];
    const t = throttleProgress(
      (p) => apply(merged, p),
      200,
      () => clock,
      (run) => timers.push(run),
    );
    let reports = 0;
    const session = await parseSession([createMemorySource('big.jsonl', text)], {
      chunkBytes: 16 * 1024,
      onProgress: (p) => {
        reports++;
        clock += 37;
        apply(all, p);
        t.report(p);
      },
    });
    for (const run of timers) run();
    t.flush();
    expect(reports).toBeGreaterThan(20);
    expect(all.length).toBeGreaterThan(300);
    expect(all.at(-1)).toBe(session.apiCalls.at(-1)?.contextTokens);
    expect(merged).toEqual(all);
  });

  it('merging keeps the later figures and a report without contexts', () => {
    const a: ParseProgress = {
      bytesRead: 1,
      totalBytes: 9,
      fileIndex: 0,
      contexts: { from: 0, tokens: [1] },
    };
    const b: ParseProgress = { bytesRead: 5, totalBytes: 9, fileIndex: 1 };
    expect(mergeProgress(a, b)).toEqual(b);
  });
});
