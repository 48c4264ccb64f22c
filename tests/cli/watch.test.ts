import { at } from '../../src/engine/assert';
import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { watchCommand } from '../../src/cli/live/watch';
import { CORPUS, corpusOrSkip } from '../helpers/corpus';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `ok` (a busy machine may take more than a few ticks), failing after 10 s. */
async function waitFor(ok: () => boolean): Promise<void> {
  for (let waited = 0; !ok(); waited += 25) {
    if (waited > 10_000) throw new Error('timed out');
    await sleep(25);
  }
}

describe('compactlab watch', () => {
  it('follows appends (a cut line waits) and scores the compaction that lands against its prediction', async () => {
    const lines = readFileSync(join(__dirname, '../fixtures/tiny.jsonl'), 'utf8').trimEnd().split('\n');
    const boundary = lines.findIndex((l) => l.includes('"compact_boundary"'));
    expect(boundary).toBeGreaterThan(0);
    const file = join(mkdtempSync(join(tmpdir(), 'compactlab-watch-')), 'session.jsonl');
    // Everything before the boundary, and half of the boundary's line.
    const cut = Math.floor(at(lines, boundary).length / 2);
    writeFileSync(file, `${lines.slice(0, boundary).join('\n')}\n${at(lines, boundary).slice(0, cut)}`);
    const out: string[] = [];
    const stop = new AbortController();
    const done = watchCommand([file, '--json', '--interval-ms', '50'], (t) => out.push(t), stop.signal);
    await waitFor(() => out.length > 0);
    await sleep(200);
    const before = out.map((l) => JSON.parse(l));
    expect(before.every((l) => l.kind === 'status')).toBe(true);
    expect(before.at(-1)).toMatchObject({ compactions: 0, autoCompactTokens: 167_000 });
    appendFileSync(file, `${at(lines, boundary).slice(cut)}\n${lines.slice(boundary + 1).join('\n')}\n`);
    await waitFor(() => out.some((l) => l.includes('"apiCalls":6')));
    stop.abort();
    expect(await done).toBe(0);
    const events = out.map((l) => JSON.parse(l));
    const compaction = events.find((e) => e.kind === 'compaction');
    // tiny.jsonl compacts at preTokens 167,272 (fixtures README); 2.1.68 predicts 167,000.
    expect(compaction).toMatchObject({
      trigger: 'auto',
      preTokens: 167_272,
      thresholdTokens: 167_000,
      line: boundary + 1,
    });
    expect(events.at(-1)).toMatchObject({ kind: 'status', compactions: 1, apiCalls: 6 });
  });
});

// The tester's report: on a session whose context went past 200k, `watch --once` printed
// `ctx …/200k (204%) · compaction due` where `replay` said "Window 1M". A real 1M session of the
// corpus (hannibal8856/claude_backup bdcc4d2c, context up to 678,975, Claude Code 2.1.229, no
// `[1m]` in its model id): watch infers the replay's window and threshold
// (tests/corpus/long-context.test.ts holds the live rule to the replay's on every corpus session).
describe.skipIf(!corpusOrSkip('watch over a real 1M session'))('compactlab watch, 1M session', () => {
  it('--once infers the 1M window from the log, as replay does', async () => {
    const file = join(
      CORPUS,
      'hannibal8856__claude_backup',
      'claude__projects__-home-moxa-sdc1-home-moxa-mds4xgl3-buildroot-dl__bdcc4d2c-9721-438a-afe2-8482c5b0ae9b.jsonl',
    );
    const out: string[] = [];
    expect(await watchCommand([file, '--once', '--json'], (t) => out.push(t))).toBe(0);
    // 2.1.68 profile on a 1M window: 1,000,000 − 20,000 − 13,000 = 967,000.
    expect(JSON.parse(at(out, out.length - 1))).toMatchObject({
      kind: 'status',
      contextWindowTokens: 1_000_000,
      autoCompactTokens: 967_000,
      contextTokens: 678_975,
    });
  });
});
