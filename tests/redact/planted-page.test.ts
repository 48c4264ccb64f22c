import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ExportedSummary } from '../../src/engine/export/summary-export';
import { createEngineClient } from '../../src/worker/engine-client';
import { ENGINE_HANDLERS } from '../../src/worker/engine-handlers';
import { createInProcessPort } from '../../src/worker/in-process-port';
import type { ExportFormat } from '../../src/worker/protocol';
import { findSession, findSurvivors, writePlantedSession } from './planted-session';

// Issue 22, items 1, 2 and 6, the page: the same planted session (planted-session.ts) through the
// worker's handlers the page calls (in process, as the page's no-worker fallback runs them): every
// export of the Export menu, the summarizer's exact request, what a summarizer sent back (the
// texts the page stores as a run and shows as an error), and the export file's own name.

const session = findSession();

describe.skipIf(!session)(
  'planted secrets (issue 22): none survives what the page exports, sends or stores',
  () => {
    it('masks every planted value in each export, the request and the returned texts', async () => {
      const root = mkdtempSync(join(tmpdir(), 'compactlab-planted-page-'));
      const planted = writePlantedSession(session!, root);
      const client = createEngineClient({
        start: (listener) => createInProcessPort(ENGINE_HANDLERS, listener),
      });
      // Named as a dropped folder names them: the path under the folder dropped.
      const file = (path: string) => ({
        name: relative(root, path),
        blob: new Blob([new Uint8Array(readFileSync(path))]),
      });
      const overview = await client.request({
        kind: 'load',
        sessionId: 1,
        files: [file(planted.main), file(planted.subagent)],
      });
      expect(overview.entries).toBeGreaterThan(0);
      const setup = await client.request({ kind: 'replay-setup', sessionId: 1, strategyId: 'claude-code' });
      const replay = { strategyId: setup.strategyId, overrides: {}, summaryModel: 'recorded' as const };
      const redaction = { unmasked: [] };
      // A stored run as an older page kept it (its summary quoting secrets bare), exported with the log's.
      const bare = planted.bare.map((s) => `quoted ${s}`).join('\n');
      const run: ExportedSummary = {
        source: 'run',
        label: 'a run',
        pointLabel: 'compaction 1',
        model: planted.bare[0],
        text: bare,
      };
      const outputs: Record<string, string> = {};
      const formats: ExportFormat[] = [
        'summaries-md',
        'summaries-json',
        'compacted-jsonl',
        'report-html',
        'timeline-svg',
      ];
      for (const format of formats) {
        outputs[format] = await (
          await client.request({
            kind: 'export-file',
            sessionId: 1,
            format,
            redaction,
            replay,
            runs: format === 'compacted-jsonl' || format === 'timeline-svg' ? undefined : [run],
            summariesByPoint: format === 'compacted-jsonl' ? { 'compaction:0': bare } : undefined,
          })
        ).text();
      }
      outputs['run-comparison-md'] = await (
        await client.request({
          kind: 'export-file',
          sessionId: 1,
          format: 'run-comparison-md',
          redaction,
          runs: [run, { ...run, label: 'another run' }],
        })
      ).text();
      const prepared = await client.request({
        kind: 'summaries-prepare',
        sessionId: 1,
        point: { kind: 'compaction', compactionIndex: 1 },
        settings: {
          presetId: 'claude-code-full',
          prompt: 'Summarize.',
          customInstructions: '',
          systemPrompt: 'You summarize.',
          model: 'claude-sonnet-4-5',
          maxOutputTokens: 20_000,
          redact: redaction,
        },
      });
      outputs['summarizer request'] = JSON.stringify(prepared);
      const returned = await client.request({
        kind: 'redact-texts',
        sessionId: 1,
        texts: [
          bare,
          `HTTP 401: <html><body>bad key ${planted.secrets[0]!.secret}</body></html>`,
          file(planted.main).name,
        ],
        redaction,
      });
      outputs['returned texts'] = returned.join('\n');
      expect(findSurvivors(planted, outputs)).toEqual([]);
      // The request is the span's: the planted text reached it (masked), and the export name is masked.
      expect(outputs['summarizer request']).toContain('[REDACTED:');
      expect(returned[2]).toBe('-home-~-work-demo/session.jsonl');
    }, 120_000);
  },
);
