import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileStrategySource } from '../../src/cli/strategy-file';
import { registerCustomStrategy } from '../../src/engine/strategies/registry';
import { createEngineClient } from '../../src/worker/engine-client';
import { ENGINE_HANDLERS } from '../../src/worker/engine-handlers';
import { createInProcessPort } from '../../src/worker/in-process-port';
import type { ExportFormat } from '../../src/worker/protocol';

// Issue 23, items 2 and 5: every export of the Export menu that names the replayed strategy names
// a custom one as the page shows it ("Custom: <label>" and its id), and says that its code is not
// in the file and how to load it (its .ts file, in the editor or `--strategy-file`). Through the
// handlers the page calls (in process; the page's sandbox runs the same ones).

const SAMPLE_DIR = join(import.meta.dirname, '../../public/samples');
const SAMPLE = join(SAMPLE_DIR, readdirSync(SAMPLE_DIR).find((f) => f.endsWith('.jsonl')) ?? 'missing');
const HALF = join(import.meta.dirname, '../../examples/strategies/summarize-oldest-half.ts');

async function exportAll(strategyId: string, overrides: Record<string, number> = {}) {
  const client = createEngineClient({ start: (listener) => createInProcessPort(ENGINE_HANDLERS, listener) });
  await client.request({
    kind: 'load',
    sessionId: 1,
    files: [{ name: 'sample.jsonl', blob: new Blob([new Uint8Array(readFileSync(SAMPLE))]) }],
  });
  const replay = { strategyId, overrides, summaryModel: 'recorded' as const };
  const formats: ExportFormat[] = [
    'summaries-md',
    'summaries-json',
    'compacted-jsonl',
    'report-html',
    'timeline-svg',
  ];
  const out: Partial<Record<ExportFormat, string>> = {};
  for (const format of formats)
    out[format] = await (await client.request({ kind: 'export-file', sessionId: 1, format, replay })).text();
  client.terminate();
  return out as Record<ExportFormat, string>;
}

describe('exports name a custom strategy and say how to load it', () => {
  it('Markdown and JSON summaries, the compacted JSONL, the report and the timeline', async () => {
    registerCustomStrategy(
      await compileStrategySource(readFileSync(HALF, 'utf8'), 'summarize-oldest-half.ts'),
    );
    const out = await exportAll('summarize-oldest-half', { contextWindow: 100_000 });
    const name = 'Custom: Summarize the oldest half (summarize-oldest-half)';
    const load =
      /its code is not in this file\. To replay it, get summarize-oldest-half\.ts .* --strategy-file summarize-oldest-half\.ts/;
    expect(out['summaries-md']).toContain(`Replayed under ${name}: a custom strategy`);
    expect(out['summaries-md']).toMatch(load);
    const json = JSON.parse(out['summaries-json']) as {
      transcript: { replay: { id: string; name: string; custom: { fileName: string; howToLoad: string } } };
    };
    expect(json.transcript.replay).toMatchObject({
      id: 'summarize-oldest-half',
      name,
      custom: { fileName: 'summarize-oldest-half.ts' },
    });
    expect(json.transcript.replay.custom.howToLoad).toMatch(load);
    const boundaries = out['compacted-jsonl']
      .trimEnd()
      .split('\n')
      .map(
        (l) =>
          JSON.parse(l) as {
            subtype?: string;
            compactlab?: { replayedStrategy: string; customStrategy?: { howToLoad: string } };
          },
      )
      // The replay's own (the log's manual ones it keeps are written as they were).
      .filter((r) => r.subtype === 'compact_boundary' && r.compactlab !== undefined);
    expect(boundaries.length).toBeGreaterThan(0);
    for (const b of boundaries) {
      expect(b.compactlab?.replayedStrategy).toBe(name);
      expect(b.compactlab?.customStrategy?.howToLoad).toMatch(load);
    }
    expect(out['report-html']).toContain(`<h2>Replay: ${name}</h2>`);
    expect(out['report-html']).toMatch(
      /<p class="muted" data-custom-strategy>Custom: Summarize the oldest half \(summarize-oldest-half\) is a custom strategy: its code is not in this file/,
    );
    expect(out['timeline-svg']).toContain(`replayed under ${name}`);
  }, 60_000);

  it('a built-in is named, with no loading note', async () => {
    const out = await exportAll('claude-code');
    expect(out['summaries-md']).toContain('Replayed under Claude Code (claude-code).');
    expect(JSON.parse(out['summaries-json']).transcript.replay).toEqual({
      id: 'claude-code',
      name: 'Claude Code (claude-code)',
    });
    expect(out['compacted-jsonl']).toContain('"compactlab":{"replayedStrategy":"Claude Code (claude-code)"}');
    expect(out['report-html']).not.toContain('data-custom-strategy');
  }, 60_000);
});
