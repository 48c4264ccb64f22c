import { at } from '../../src/engine/assert';
import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { watchCommand } from '../../src/cli/live/watch';

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
