import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateSession } from '../../sample/generate-session';
import { main } from '../../src/cli/main';
import { ABORT_ERROR, type WhatIfProgress, type WhatIfSession } from '../../src/worker/protocol';
import { WHATIF_HANDLERS } from '../../src/worker/whatif-handlers';

// The library's what-if in the worker: the same rows and totals as `compactlab stats --strategy`
// over the same sessions (one code path, engine/stats/), progress per session with the running
// totals, a broken session counted as an error, and a cancel that stops between sessions.

const root = mkdtempSync(join(tmpdir(), 'compactlab-whatif-'));
const sessions: WhatIfSession[] = [];
for (let i = 0; i < 5; i++) {
  const generated = generateSession({ seed: 40 + i, apiCalls: 60 + 25 * i });
  const files = generated.files.map((f) => ({ name: `p${i}/${f.name}`, text: f.text }));
  for (const f of files) {
    mkdirSync(dirname(join(root, f.name)), { recursive: true });
    writeFileSync(join(root, f.name), f.text);
  }
  // Named by their paths, as the CLI names them (a replayed summary's size counts the transcript's path).
  const named = files.map((f) => ({ name: join(root, f.name), blob: new Blob([f.text]) }));
  sessions.push({ file: named[0]!.name, files: named });
}
const BROKEN = 'broken/not-a-session.jsonl';
const SPEC = {
  strategyId: 'claude-code',
  overrides: {},
  sweep: { knob: 'autocompactPctOverride', values: [55, 85] },
  retention: true,
};

const ONE_SETTING = { ...SPEC, sweep: { knob: 'autocompactPctOverride', values: [55] } };

async function run(all: WhatIfSession[], signal = new AbortController().signal) {
  const progress: WhatIfProgress[] = [];
  const reply = await WHATIF_HANDLERS['library-whatif'](
    { kind: 'library-whatif', sessions: all, spec: SPEC },
    { state: {}, signal, onProgress: (p) => progress.push(p as WhatIfProgress) },
  );
  return { result: reply.result, progress };
}

describe('library-whatif in the worker', () => {
  it('gives the totals compactlab stats --strategy gives, session by session', async () => {
    const out: string[] = [];
    const args = ['stats', root, '--strategy', 'claude-code', '--sweep', 'autocompactPctOverride=55:85:2'];
    expect(await main([...args, '--retention', '--jobs', '0'], (t) => out.push(t))).toBe(0);
    // The CLI writes every column, null where a row has no value (records.ts); the worker's rows
    // hold the values only.
    const cli = out
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((r) => r.row === 'total')
      .map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== null)));
    const { result, progress } = await run(sessions);
    expect(result.totals).toEqual(cli);
    expect(result.totals.map((t) => t.setting)).toEqual([
      'autocompactPctOverride=55',
      'autocompactPctOverride=85',
    ]);
    expect(Number(result.totals[0]!.compactions)).toBeGreaterThan(Number(result.totals[1]!.compactions));
    expect(Number(result.totals[0]!.heldFacts)).toBeGreaterThan(0);
    expect(progress.map((p) => [p.done, p.total, p.file])).toEqual(
      sessions.map((s, i) => [i + 1, sessions.length, s.file]),
    );
    // Each session's rows, one per setting; the running totals end at the result's.
    for (const p of progress)
      expect(p.rows.map((r) => r.setting)).toEqual(result.totals.map((t) => t.setting));
    expect(progress.at(-1)!.totals).toEqual(result.totals);
    expect(Number(progress[0]!.totals[0]!.sessions)).toBe(1);
  });

  it('counts a session it cannot read as an error and goes on', async () => {
    const broken = {
      file: BROKEN,
      files: [{ name: BROKEN, blob: new Blob(['not json\n{"also":"not a transcript"}\n']) }],
    };
    const { result, progress } = await run([broken, sessions[0]!]);
    expect(progress[0]!.rows).toEqual([]);
    expect(result.totals.map((t) => t.sessions)).toEqual([1, 1]);
    // A file with no API call has no rows; one that fails to parse is an error of every setting.
    expect(result.totals.every((t) => t.errors === (progress[0]!.error ? 1 : 0))).toBe(true);
  });

  it('stops when cancelled: no session after the cancel is replayed', async () => {
    const controller = new AbortController();
    const progress: WhatIfProgress[] = [];
    const running = WHATIF_HANDLERS['library-whatif'](
      { kind: 'library-whatif', sessions, spec: SPEC },
      {
        state: {},
        signal: controller.signal,
        onProgress: (p) => {
          if (!('done' in p)) return;
          progress.push(p);
          if (p.done === 2) controller.abort();
        },
      },
    );
    await expect(running).rejects.toMatchObject({ name: ABORT_ERROR });
    expect(progress.map((p) => p.done)).toEqual([1, 2]);
  });

  it('stops inside a session too: the parse, each setting and the retention scoring take the signal', async () => {
    const { computeSettingRows } = await import('../../src/engine/stats/setting-rows');
    const { createBlobSource } = await import('../../src/worker/blob-source');
    const s = sessions.at(-1)!;
    const sources = () => s.files.map((f) => createBlobSource(f.name, f.blob));
    const aborted = new AbortController();
    aborted.abort();
    await expect(computeSettingRows(s.file, sources(), SPEC, aborted.signal)).rejects.toMatchObject({
      name: ABORT_ERROR,
    });
    // Aborted at the first read after the parse (the retention scoring reads the spans again):
    // the run stops there, with no row.
    const { parseSession } = await import('../../src/engine/parse/parse-session');
    let reads = 0;
    const counted = (abortAt: number, controller?: AbortController) =>
      sources().map((src) => ({
        name: src.name,
        sizeBytes: src.sizeBytes,
        read: (offset: number, length: number) => {
          if (++reads === abortAt) controller?.abort();
          return src.read(offset, length);
        },
      }));
    await parseSession(counted(0));
    const parseReads = reads;
    reads = 0;
    const late = new AbortController();
    await expect(
      // One setting: no check between settings after it, the scoring itself must stop.
      computeSettingRows(s.file, counted(parseReads + 1, late), ONE_SETTING, late.signal),
    ).rejects.toMatchObject({ name: ABORT_ERROR });
    expect(reads).toBeGreaterThan(parseReads);
  });
});
